//! A hang is a hang: before a program that has not answered within its
//! time limit is called hung, whether it was given the CPU is looked at.
//!
//! On a busy machine (a load of 12 on 2 cores, a build beside the check) a
//! program that would answer in a second may not have run for the five
//! seconds of `--timeout`. Its process group is read from `/proc` over a
//! short window ([`WINDOW`]): when one of its processes wants the CPU
//! (runnable, `R`, or waiting on the disk, `D`) and the group was given
//! less than half a core, it is starved, not hung, and is waited for, up
//! to [`CEILING`] times the time limit in all (never past the check's
//! deadline), which the hang's message then states. A program that waits
//! on something (sleeping, `S`: a read that never ends) or runs freely
//! and still does not answer is hung, as before.

use std::time::{Duration, Instant};

/// How long the group is watched to tell a starved program from a hung
/// one.
const WINDOW: Duration = Duration::from_millis(200);

/// The most a starved program is waited for, in times its time limit, in
/// all (the first wait included).
pub const CEILING: u32 = 3;

/// What the processes of one group are doing now.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct GroupNow {
    /// The CPU time its live processes have spent in their lives, with the
    /// descendants they reaped.
    cpu: Duration,
    /// Whether one of them wants the CPU (`R`) or the disk (`D`).
    wants: bool,
    /// Whether it has a process at all.
    alive: bool,
}

/// Reads every process of group `group` from `/proc`.
fn group_now(group: libc::pid_t) -> GroupNow {
    let mut now = GroupNow::default();
    // SAFETY: sysconf(3) reads a constant.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .ok()
        .filter(|&t| t > 0)
        .unwrap_or(100);
    for pid in crate::engines::process::pids() {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(fields) = stat_fields(&stat) else {
            continue;
        };
        if fields.group != group {
            continue;
        }
        now.alive = true;
        now.wants |= matches!(fields.state, 'R' | 'D');
        now.cpu += Duration::from_nanos(fields.ticks * 1_000_000_000 / per_second);
    }
    now
}

/// The fields of one `/proc/PID/stat` line that tell starvation.
#[derive(Debug, PartialEq)]
struct Stat {
    state: char,
    group: libc::pid_t,
    /// utime + stime + cutime + cstime, in clock ticks.
    ticks: u64,
}

/// Reads `PID (COMM) STATE PPID PGRP ... UTIME STIME CUTIME CSTIME ...`
/// (COMM may hold spaces and parentheses: the fields count from the last
/// `)`).
fn stat_fields(stat: &str) -> Option<Stat> {
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let number = |k: usize| fields.get(k)?.parse::<u64>().ok();
    Some(Stat {
        state: fields.first()?.chars().next()?,
        group: fields.get(2)?.parse().ok()?,
        ticks: number(11)? + number(12)? + number(13)? + number(14)?,
    })
}

/// Whether process group `group`, which has not answered in time, is
/// starved of the CPU rather than hung: watched for [`WINDOW`], one of its
/// processes wanted the CPU or the disk and the group was given less than
/// half a core. `Some(share of a core it was given)` when starved.
pub(super) fn starved(group: u32) -> Option<f64> {
    let group = libc::pid_t::try_from(group).ok()?;
    let before = group_now(group);
    let start = Instant::now();
    std::thread::sleep(WINDOW);
    let after = group_now(group);
    let wall = start.elapsed().as_secs_f64();
    let share = after.cpu.saturating_sub(before.cpu).as_secs_f64() / wall;
    (after.alive && (before.wants || after.wants) && share < 0.5).then_some(share)
}

/// The instant until which a starved program asked at `started`, with
/// `allowed` to answer, may be waited for: [`CEILING`] times `allowed`,
/// never past `deadline`.
pub(super) fn ceiling(started: Instant, allowed: Duration, deadline: Option<Instant>) -> Instant {
    let most = started + allowed * CEILING;
    deadline.map_or(most, |d| d.min(most))
}

/// What a hang's message adds when the program was starved at some point
/// and waited for: the share of a core it was given last, and the ceiling.
pub(super) fn note(share: f64, waited: Duration) -> String {
    format!(
        "; it was runnable but starved of the CPU ({:.0}% of a core), and was waited for {:.1} s in all, up to {CEILING} times the time limit",
        share * 100.0,
        waited.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_from_its_last_parenthesis() {
        let line = "4242 (a (weird) name) R 1 4240 4240 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 99";
        assert_eq!(
            stat_fields(line),
            Some(Stat {
                state: 'R',
                group: 4240,
                ticks: 13
            })
        );
        assert_eq!(stat_fields("garbage"), None);
    }

    /// A sleeping program is not starved (it waits on something: a hang),
    /// and neither is one that runs freely; nor a group that is gone.
    #[test]
    fn a_sleeping_program_is_not_starved() {
        use std::os::unix::process::CommandExt;
        let mut sleeping = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .expect("sleep starts");
        // Until it sleeps (its start-up is runnable).
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(starved(sleeping.id()), None);
        let _ = sleeping.kill();
        let _ = sleeping.wait();
        assert_eq!(starved(sleeping.id()), None, "gone");
    }

    /// A loop at the lowest priority sharing one core with a loop at the
    /// normal one gets about 1.5% of it (the kernel's weights, 15 to
    /// 1024): starved, however busy the rest of the machine is.
    #[test]
    fn a_program_denied_the_cpu_is_starved() {
        use std::os::unix::process::CommandExt;
        let spin = |nice: &str| {
            std::process::Command::new("taskset")
                .args([
                    "-c",
                    "0",
                    "nice",
                    "-n",
                    nice,
                    "sh",
                    "-c",
                    "while :; do :; done",
                ])
                .process_group(0)
                .spawn()
                .expect("taskset, nice and sh start")
        };
        let mut normal = spin("0");
        let mut low = spin("19");
        std::thread::sleep(Duration::from_millis(100));
        let share = starved(low.id());
        for child in [&mut normal, &mut low] {
            let _ = child.kill();
            let _ = child.wait();
        }
        assert!(share.is_some_and(|s| s < 0.5), "{share:?}");
    }

    /// The ceiling is a few times the limit, and never past the deadline.
    #[test]
    fn the_ceiling_stops_at_the_deadline() {
        let now = Instant::now();
        let second = Duration::from_secs(1);
        assert_eq!(ceiling(now, second, None), now + second * CEILING);
        assert_eq!(ceiling(now, second, Some(now + second)), now + second);
    }
}

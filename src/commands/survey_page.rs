//! The survey's `survey.md` and `index.html`: the matrix of gates against
//! rule areas, and each gate's causes with their reproduce lines and the
//! notes of their baselines. The page is one file: inline CSS and SVG, no
//! script, nothing fetched from anywhere.

use std::fmt::Write;

use super::survey_model::{AREAS, Gate, Survey, SurveyCause, shown_status};

/// A cell's mark in Markdown, and its word in the legend.
fn mark(cell: &str) -> &'static str {
    match cell {
        "pass" => "pass",
        "declared" => "declared",
        "known" => "known deviation",
        "new" => "**NEW**",
        "not-run" => "not run",
        _ => "?",
    }
}

/// The legend, in words, for both files.
const LEGEND: &str = "pass: no cause in the area. declared: a difference the gate's declaration \
explains (a length limit, an older Unicode, a narrower domain). known deviation: a cause the \
gate's baseline records, read in the implementation's source (its note). NEW: a cause the baseline \
does not record, or a recorded one gone or narrowed: the gate fails. not run: the check could not \
start (its implementation is not installed here).";

/// What the rules column says of a gate.
fn rules(gate: &Gate) -> String {
    let mut parts = vec![gate.codec.clone().unwrap_or_else(|| "?".into())];
    if !gate.rules.is_empty() {
        parts.push(gate.rules.clone());
    }
    parts.join(" ")
}

/// The Unicode column.
fn unicode(gate: &Gate) -> String {
    match (&gate.unicode_version, gate.codec.as_deref()) {
        (Some(v), _) => v.clone(),
        (None, Some("label" | "domain")) => "references' own".into(),
        _ => "-".into(),
    }
}

/// The survey as Markdown: the matrix, then each gate's causes.
pub fn markdown(survey: &Survey) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# punycheck survey\n");
    let ran = survey
        .gates
        .iter()
        .filter(|g| g.status != "not-run")
        .count();
    let _ = writeln!(
        md,
        "{} gates, {} ran, started {} ({:.0} s), punycheck {}: **{}**.\n",
        survey.gates.len(),
        ran,
        survey.started,
        survey.seconds,
        survey.punycheck,
        survey.status
    );
    let _ = writeln!(md, "{LEGEND}\n");
    let _ = write!(md, "| gate | implementation | rules | Unicode | status |");
    for (_, title) in AREAS {
        let _ = write!(md, " {title} |");
    }
    let _ = write!(md, "\n|---|---|---|---|---|");
    for _ in AREAS {
        let _ = write!(md, "---|");
    }
    md.push('\n');
    for gate in &survey.gates {
        let _ = write!(
            md,
            "| [{}](#{}) | {} | {} | {} | {} |",
            gate.name,
            gate.name,
            gate.about.replace('|', "\\|"),
            rules(gate),
            unicode(gate),
            shown_status(gate)
        );
        for (area, _) in AREAS {
            let _ = write!(md, " {} |", mark(&gate.cells[*area]));
        }
        md.push('\n');
    }
    for gate in &survey.gates {
        let _ = writeln!(md, "\n## {}\n", gate.name);
        let _ = writeln!(md, "`{}`: {}\n", gate.gate, gate.about);
        let _ = writeln!(md, "- implementation: `{}`", gate.implementation);
        if let Some(declaration) = &gate.declaration {
            let _ = writeln!(md, "- declared: {declaration}");
        }
        if let Some(reason) = &gate.reason {
            let _ = writeln!(md, "- not run: {reason}");
        }
        if !gate.verdict.is_empty() {
            let _ = writeln!(md, "- verdict: {}", gate.verdict);
        }
        for cause in &gate.causes {
            let _ = writeln!(
                md,
                "\n- {} **{}** ({}): {}",
                area_title(&cause.area),
                if cause.known { "known" } else { "NEW" },
                cause.kind,
                cause.summary
            );
            let _ = writeln!(md, "  - reproduce: `{}`", cause.reproduce);
            // Several rules under one key: each its own reproducer.
            if cause.by_rule.len() > 1 {
                for rule in &cause.by_rule {
                    let _ = writeln!(
                        md,
                        "  - by rule, {}: `{}`",
                        rule_name(&rule.rule),
                        rule.reproduce
                    );
                }
            }
            if let Some(note) = &cause.note {
                let _ = writeln!(md, "  - note: {}", note.replace('\n', " "));
            }
        }
        for (what, entries) in [
            (
                "known, not met by this run, its reproducer still shows it",
                &gate.still_there,
            ),
            ("gone", &gate.gone),
            ("narrowed", &gate.narrowed),
        ] {
            for entry in entries {
                let _ = writeln!(
                    md,
                    "\n- {} **{what}** ({}): {} {} (reference: {}; implementation: {})",
                    area_title(&entry.area),
                    entry.kind,
                    entry.direction,
                    entry.kind,
                    entry.reference,
                    entry.got
                );
                if let Some(line) = &entry.reproduce {
                    let _ = writeln!(md, "  - reproduce: `{line}`");
                }
                if let Some(note) = &entry.note {
                    let _ = writeln!(md, "  - note: {}", note.replace('\n', " "));
                }
            }
        }
    }
    let _ = writeln!(
        md,
        "\n## The docs' tables\n\nWhat `punycheck survey --docs FILE` writes between \
`<!-- survey:begin NAME -->` and `<!-- survey:end NAME -->`, here from this run \
(links from the project's root); a run in which every gate gives the status its \
baseline expects gives the same tables."
    );
    for (name, table) in super::survey_docs::tables(survey, "") {
        let _ = writeln!(md, "\n### {name}\n\n{table}");
    }
    md
}

/// An area's title.
fn area_title(area: &str) -> &'static str {
    AREAS
        .iter()
        .find(|(name, _)| *name == area)
        .map_or("Other", |(_, title)| title)
}

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's style: readable from a phone's width up; the matrix
/// scrolls sideways in its own box, the gate column stays in view.
const CSS: &str = "
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:80rem;padding:0 .8rem 3rem;color:#1b1b1b;background:#fff}
h1{font-size:1.5rem;margin:1rem 0 .3rem}h2{font-size:1.15rem;margin:2rem 0 .3rem;padding-top:.5rem;border-top:1px solid #ccc}
h3{font-size:1rem;margin:1rem 0 .2rem}
.summary{margin:.2rem 0 .8rem}
ul.legend{font-size:.85rem;color:#333;list-style:none;padding:0;margin:.4rem 0 .8rem}
ul.legend li{display:inline-block;margin:0 .9rem .2rem 0}ul.legend b{display:inline-block;min-width:1.6rem;text-align:center;padding:0 .25rem;margin-right:.25rem}
.wrap{overflow-x:auto;border:1px solid #ddd;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.78rem}
th,td{border:1px solid #ddd;padding:.2rem .3rem;vertical-align:top}
thead th{background:#f3f3f3;position:sticky;top:0}
th.area{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;text-align:left;font-weight:600;padding:.3rem .15rem}
td.gate,th.gate{position:sticky;left:0;z-index:1;background:#fafafa;white-space:nowrap}
td.status{white-space:nowrap}
td.about{min-width:14rem;max-width:24rem;overflow-wrap:anywhere}
td.rules{min-width:8rem;max-width:16rem;overflow-wrap:anywhere}
td.cell{text-align:center;white-space:nowrap;padding:0}
td.cell>a,td.cell>span{display:block;padding:.2rem .3rem;text-decoration:none;color:inherit}
.pass{background:#e5f5e0}.declared{background:#e8eef8}.known{background:#fff1c9}.new{background:#f9c7c2;font-weight:700}.not-run{background:#eee;color:#666}
.status-conforming{color:#1a6b1a}.status-nonconforming,.status-incomplete,.status-interrupted{color:#a3160b;font-weight:700}.status-not-run{color:#666}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f6f6;border:1px solid #e2e2e2;padding:.4rem .5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}
ul.causes{list-style:none;padding:0;margin:0}
ul.causes>li{border-left:4px solid #ccc;padding:.2rem 0 .2rem .6rem;margin:.6rem 0}
ul.causes>li.known{border-color:#e0b100;background:none}ul.causes>li.new{border-color:#c62828;background:none;font-weight:400}
.tag{font-size:.75rem;font-weight:700;padding:0 .3rem;border-radius:3px;margin-right:.3rem}
.tag.known{background:#fff1c9}.tag.new{background:#f9c7c2}
.note{color:#333;margin:.2rem 0}.meta{color:#444;font-size:.9rem;margin:.1rem 0}
svg.cost{max-width:100%;height:auto;border:1px solid #eee}
.m,td.cell .m{display:none}
@media (max-width:40rem){body{font-size:14px;padding:0 .5rem 2rem}table{font-size:.72rem}\
td.about,td.rules,.wide,.w,td.cell .w{display:none}.m,td.cell .m{display:inline}\
td.gate,th.gate{white-space:normal;overflow-wrap:anywhere;max-width:6.5rem}td.cell>a,td.cell>span{padding:.2rem .15rem}}
";

/// The survey as one self-contained HTML page.
pub fn html(survey: &Survey) -> String {
    let mut h = String::new();
    let ran = survey
        .gates
        .iter()
        .filter(|g| g.status != "not-run")
        .count();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>punycheck survey: Punycode, IDNA and URL hosts across implementations</title>\
<style>{CSS}</style></head><body>\n"
    );
    let _ = write!(
        h,
        "<h1>punycheck survey</h1>\n<p class=\"summary\">{} gates of real implementations, {} ran; \
survey <b>{}</b> ({}), started {}, {:.0} s, punycheck {}. Each gate is <code>punycheck check --config GATE</code>; \
each cause below comes from its report, each note from its baseline. A reproduce line runs \
from the directory the survey ran in (one whose gate's root lies elsewhere begins with \
<code>cd ROOT &amp;&amp;</code>), and causes that one note explains are shown once, with the \
areas they reach.</p>\n",
        survey.gates.len(),
        ran,
        esc(&survey.status),
        if survey.status == "pass" {
            "every gate that ran gave the status its baseline expects"
        } else {
            "a gate did not give the status its baseline expects"
        },
        esc(&survey.started),
        survey.seconds,
        esc(&survey.punycheck)
    );
    let _ = writeln!(
        h,
        "<ul class=\"legend\"><li><b class=\"pass\">✓</b> no cause in the area</li>\
<li><b class=\"declared\"><span class=\"w\">decl</span><span class=\"m\">d</span></b> the declaration explains a difference</li>\
<li><b class=\"known\"><span class=\"w\">known</span><span class=\"m\">k</span></b> a deviation the baseline records, read in the source</li>\
<li><b class=\"new\"><span class=\"w\">NEW</span><span class=\"m\">N</span></b> not in the baseline (or a recorded one gone, narrowed): the gate fails</li>\
<li><b class=\"not-run\">–</b> not run: its implementation is not installed</li></ul>"
    );
    let _ = write!(
        h,
        "<div class=\"wrap\"><table><thead><tr><th class=\"gate\">gate and status</th>"
    );
    for (_, title) in AREAS {
        let _ = write!(h, "<th class=\"area\">{}</th>", esc(title));
    }
    h.push_str(
        "<th class=\"wide\">implementation</th><th class=\"wide\">rules and switches</th>\
<th class=\"wide\">Unicode</th></tr></thead><tbody>\n",
    );
    for gate in &survey.gates {
        let _ = write!(
            h,
            "<tr><td class=\"gate\"><a href=\"#{id}\">{name}</a><br><small class=\"status-{status}\">{shown}</small></td>",
            id = esc(&gate.name),
            name = esc(&gate.name),
            status = esc(&gate.status),
            shown = esc(&shown_status(gate)),
        );
        for (area, title) in AREAS {
            let cell = gate.cells[*area].as_str();
            // The word, and the one-letter mark a phone's width shows.
            let (word, mark) = match cell {
                "pass" => ("✓", "✓"),
                "declared" => ("decl", "d"),
                "known" => ("known", "k"),
                "new" => ("NEW", "N"),
                "not-run" => ("–", "–"),
                _ => ("?", "?"),
            };
            let word = if word == mark {
                word.to_string()
            } else {
                format!("<span class=\"w\">{word}</span><span class=\"m\">{mark}</span>")
            };
            if cell == "known" || cell == "new" {
                let _ = write!(
                    h,
                    "<td class=\"cell {cell}\"><a href=\"#{}-{area}\" title=\"{}: {cell}\">{word}</a></td>",
                    esc(&gate.name),
                    esc(title)
                );
            } else {
                let _ = write!(
                    h,
                    "<td class=\"cell {cell}\"><span title=\"{}: {cell}\">{word}</span></td>",
                    esc(title)
                );
            }
        }
        let rules: Vec<String> = rules(gate)
            .split(' ')
            .map(|word| format!("<span>{}</span>", esc(word)))
            .collect();
        let _ = writeln!(
            h,
            "<td class=\"about\">{}</td><td class=\"rules\">{}</td><td class=\"wide\">{}</td></tr>",
            esc(&gate.about),
            rules.join(" "),
            esc(&unicode(gate))
        );
    }
    h.push_str("</tbody></table></div>\n");
    for gate in &survey.gates {
        gate_section(&mut h, gate);
    }
    h.push_str("</body></html>\n");
    h
}

/// One gate's section: what it is, its verdict, its cost plot, and its
/// causes by area.
fn gate_section(h: &mut String, gate: &Gate) {
    let _ = write!(
        h,
        "<h2 id=\"{}\">{}</h2>\n<p class=\"meta\">{}</p>\n<p class=\"meta\">gate <code>{}</code>; \
implementation <code>{}</code>; <span class=\"status-{}\">{}</span></p>\n",
        esc(&gate.name),
        esc(&gate.name),
        esc(&gate.about),
        esc(&gate.gate),
        esc(&gate.implementation),
        esc(&gate.status),
        esc(&shown_status(gate))
    );
    if let Some(declaration) = &gate.declaration {
        let _ = writeln!(h, "<p class=\"meta\">declared: {}</p>", esc(declaration));
    }
    if let Some(reason) = &gate.reason {
        let _ = writeln!(h, "<p class=\"meta\">not run: {}</p>", esc(reason));
    }
    if !gate.verdict.is_empty() {
        let _ = writeln!(h, "<p class=\"meta\"><b>{}</b></p>", esc(&gate.verdict));
    }
    if !gate.cost.is_empty() {
        cost_plot(h, gate);
    }
    // Causes that one note explains are one bug seen through several
    // rules: one item, in the area of the first (in the page's order),
    // saying every area it reaches, its note once.
    let order = |area: &str| AREAS.iter().position(|(a, _)| *a == area);
    let mut sorted: Vec<&SurveyCause> = gate.causes.iter().collect();
    sorted.sort_by_key(|c| order(&c.area));
    let mut groups: Vec<Vec<&SurveyCause>> = Vec::new();
    for cause in sorted {
        let same = cause
            .note
            .as_ref()
            .and_then(|n| groups.iter_mut().find(|g| g[0].note.as_ref() == Some(n)));
        match same {
            Some(group) => group.push(cause),
            None => groups.push(vec![cause]),
        }
    }
    for (area, title) in AREAS {
        let here: Vec<&Vec<&SurveyCause>> = groups.iter().filter(|g| g[0].area == *area).collect();
        let gone: Vec<_> = gate
            .still_there
            .iter()
            .map(|r| ("known", r))
            .chain(gate.gone.iter().map(|r| ("gone", r)))
            .chain(gate.narrowed.iter().map(|r| ("narrowed", r)))
            .filter(|(_, r)| r.area == *area)
            .collect();
        if here.is_empty() && gone.is_empty() {
            continue;
        }
        let _ = writeln!(
            h,
            "<h3 id=\"{}-{area}\">{}</h3><ul class=\"causes\">",
            esc(&gate.name),
            esc(title)
        );
        for group in here {
            let known = group.iter().all(|c| c.known);
            let class = if known { "known" } else { "new" };
            let _ = write!(
                h,
                "<li class=\"{class}\"><span class=\"tag {class}\">{}</span>",
                if known { "known" } else { "NEW" },
            );
            if group.len() > 1 {
                let mut areas: Vec<&str> = group.iter().map(|c| area_title(&c.area)).collect();
                areas.dedup();
                let _ = write!(
                    h,
                    "one root, {} causes, in {}",
                    group.len(),
                    esc(&areas.join(", "))
                );
            }
            for cause in group {
                cause_item(h, cause, group.len() > 1);
            }
            if let Some(note) = &group[0].note {
                let _ = write!(h, "<div class=\"note\">{}</div>", esc(note));
            }
            h.push_str("</li>\n");
        }
        for (what, entry) in gone {
            let class = if what == "known" { "known" } else { "new" };
            let _ = write!(
                h,
                "<li class=\"{class}\"><span class=\"tag {class}\">{what}</span>{}: {} (reference: {}; implementation: {}){}",
                esc(&entry.direction),
                esc(&entry.kind),
                esc(&entry.reference),
                esc(&entry.got),
                if what == "known" {
                    ": recorded in the baseline, not met by this run; its reproducer still shows it"
                        .into()
                } else if entry.passing.is_empty() {
                    String::new()
                } else {
                    format!(": now passing {}", esc(&entry.passing.join(", ")))
                }
            );
            if let Some(line) = &entry.reproduce {
                let _ = write!(h, "<pre>{}</pre>", esc(line));
            }
            if let Some(note) = &entry.note {
                let _ = write!(h, "<div class=\"note\">{}</div>", esc(note));
            }
            h.push_str("</li>\n");
        }
        h.push_str("</ul>\n");
    }
}

/// One cause of a gate's section: its summary (a line of its own inside
/// a group of one root), what explained it, and its reproducers.
fn cause_item(h: &mut String, cause: &SurveyCause, in_group: bool) {
    if in_group {
        let _ = write!(h, "<div class=\"meta\">{}</div>", esc(&cause.summary));
    } else {
        h.push_str(&esc(&cause.summary));
    }
    if !cause.explanations.iter().all(String::is_empty) {
        let _ = write!(
            h,
            "<div class=\"meta\">explained: {}</div>",
            esc(&cause.explanations.join("; "))
        );
    }
    let _ = write!(h, "<pre>{}</pre>", esc(&cause.reproduce));
    if cause.by_rule.len() > 1 {
        for rule in &cause.by_rule {
            let _ = write!(
                h,
                "<div class=\"meta\">by rule, {}:</div><pre>{}</pre>",
                esc(rule_name(&rule.rule)),
                esc(&rule.reproduce)
            );
        }
    }
}

/// The cost probe's series drawn log-log: CPU seconds against code
/// points, one line per family and direction, the slow ones red.
fn cost_plot(h: &mut String, gate: &Gate) {
    let (w, ht, left, bottom) = (360.0, 150.0, 36.0, 18.0);
    let points = gate.cost.iter().flat_map(|s| s.points.iter());
    let (mut xmin, mut xmax, mut ymin, mut ymax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points {
        let (x, y) = ((x.max(1) as f64).log2(), y.max(1e-5).log10());
        xmin = xmin.min(x);
        xmax = xmax.max(x);
        ymin = ymin.min(y);
        ymax = ymax.max(y);
    }
    if xmin >= xmax || ymin > ymax {
        return;
    }
    ymin = ymin.floor();
    ymax = ymax.ceil().max(ymin + 1.0);
    let sx = |x: f64| left + (x - xmin) / (xmax - xmin) * (w - left - 8.0);
    let sy = |y: f64| (ht - bottom) - (y - ymin) / (ymax - ymin) * (ht - bottom - 8.0);
    let _ = write!(
        h,
        "<svg class=\"cost\" viewBox=\"0 0 {w} {ht}\" width=\"{w}\" height=\"{ht}\" role=\"img\" \
aria-label=\"cost probe of {}\"><rect x=\"{left}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#fcfcfc\"/>",
        esc(&gate.name),
        w - left,
        ht - bottom
    );
    let mut y = ymin;
    while y <= ymax {
        let label = match y as i32 {
            -5..=-1 => format!("{}s", 10f64.powi(y as i32)),
            e => format!("{}s", 10i64.pow(e as u32)),
        };
        let _ = write!(
            h,
            "<line x1=\"{left}\" x2=\"{w}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#e4e4e4\"/>\
<text x=\"2\" y=\"{1:.1}\" font-size=\"9\" fill=\"#555\">{label}</text>",
            sy(y),
            sy(y) + 3.0
        );
        y += 1.0;
    }
    let _ = write!(
        h,
        "<text x=\"{left}\" y=\"{}\" font-size=\"9\" fill=\"#555\">{} code points</text>\
<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"#555\" text-anchor=\"end\">{} (log-log, CPU time)</text>",
        ht - 4.0,
        2f64.powf(xmin).round(),
        w - 4.0,
        ht - 4.0,
        2f64.powf(xmax).round()
    );
    for series in &gate.cost {
        let color = match series.verdict.as_str() {
            "slow" => "#c62828",
            "near" => "#e0a000",
            _ => "#4a7fc1",
        };
        let path: Vec<String> = series
            .points
            .iter()
            .map(|&(x, y)| {
                format!(
                    "{:.1},{:.1}",
                    sx((x.max(1) as f64).log2()),
                    sy(y.max(1e-5).log10())
                )
            })
            .collect();
        let _ = write!(
            h,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\" points=\"{}\">\
<title>{} {}: {} per doubling, {}</title></polyline>",
            path.join(" "),
            esc(&series.direction),
            esc(&series.family),
            series
                .growth
                .map_or("too fast to read".into(), |g| format!("x{g:.1}")),
            esc(&series.verdict)
        );
    }
    h.push_str("</svg>\n<p class=\"meta\">cost probe: ");
    let words: Vec<String> = gate
        .cost
        .iter()
        .map(|s| {
            format!(
                "{} {} {} ({})",
                esc(&s.direction),
                esc(&s.family),
                s.growth.map_or("too fast to read".into(), |g| format!(
                    "x{g:.1} per doubling"
                )),
                esc(&s.verdict)
            )
        })
        .collect();
    let _ = writeln!(h, "{}</p>", words.join("; "));
}

/// A rule of a cause's `by_rule` as the page names it: the empty
/// explanation is the class alone, as the text report says.
fn rule_name(rule: &str) -> &str {
    if rule.is_empty() {
        "the class alone"
    } else {
        rule
    }
}

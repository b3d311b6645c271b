//! The progress display of long commands: on standard error, and only when
//! it is a terminal (a CI log or a pipe gets none). Each phase shows what it
//! counts: a bar with a count of a known total (`vectors 120/365`), or a
//! running count with no total (`generated questions 5321`), or a spinner
//! alone.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// What one moment of a phase looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The phase, in words.
    pub message: String,
    /// How far it is, when it counts anything: never above its total.
    pub done: Option<u64>,
    /// The total, when the phase has one.
    pub total: Option<u64>,
}

impl View {
    /// A phase named `message` at `done`, of `total` when there is one; a
    /// count above the total is shown as the total (the display never says
    /// `592/576`).
    pub fn new(message: &str, done: u64, total: Option<u64>) -> Self {
        View {
            message: message.to_string(),
            done: Some(total.map_or(done, |t| done.min(t))),
            total,
        }
    }

    /// A phase that counts nothing: its name and a spinner.
    pub fn spinner(message: &str) -> Self {
        View {
            message: message.to_string(),
            done: None,
            total: None,
        }
    }

    /// As text, the way the display shows it (without the timer).
    #[cfg(test)]
    pub fn text(&self) -> String {
        match (self.done, self.total) {
            (Some(done), Some(total)) => format!("{} {done}/{total}", self.message),
            (Some(done), None) => format!("{} {done}", self.message),
            _ => self.message.clone(),
        }
    }

    fn template(&self) -> &'static str {
        match (self.done, self.total) {
            (Some(_), Some(_)) => "{spinner} {msg} [{elapsed_precise}] {bar:30} {pos}/{len}",
            (Some(_), None) => "{spinner} {msg} [{elapsed_precise}] {pos}",
            _ => "{spinner} {msg} [{elapsed_precise}]",
        }
    }
}

/// A progress display, or nothing when standard error is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
    template: &'static str,
}

impl Progress {
    /// A display on standard error when it is a terminal and `wanted`.
    pub fn stderr(wanted: bool) -> Self {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::no_length();
            // Redrawn on its own, so the timer runs and the latest count
            // shows even while one slow batch of questions is out.
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Progress { bar, template: "" }
    }

    /// Shows `view`.
    pub fn show(&mut self, view: &View) {
        let Some(bar) = &self.bar else {
            return;
        };
        let template = view.template();
        if self.template != template {
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            self.template = template;
        }
        match view.total {
            Some(total) => bar.set_length(total),
            None => bar.unset_length(),
        }
        bar.set_message(view.message.clone());
        bar.set_position(view.done.unwrap_or(0));
        bar.tick();
    }

    /// Removes the display, before the report is printed.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_never_passes_its_total() {
        assert_eq!(
            View::new("vectors", 592, Some(576)).text(),
            "vectors 576/576"
        );
        assert_eq!(
            View::new("generated questions", 80, None).text(),
            "generated questions 80"
        );
        assert_eq!(View::spinner("minimizing").text(), "minimizing");
    }
}

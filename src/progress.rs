//! Progress bars on a terminal, silence otherwise (and always in `--json` mode).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// The bar's layout: the message, a bar as wide as the rest of the terminal's
/// line leaves (`wide_bar`), the share done and the time spent, said as such. A
/// bar of fixed width wrapped on an 80-column terminal, and each redraw then left
/// a stale line behind. No time left is shown: the work's steps are not equally
/// long (a solver's last levels take most of its time), so an estimate from the
/// rate so far stalled or misled ("80% 3m" for seven minutes).
const TEMPLATE: &str = "{msg} [{wide_bar}] {percent:>3}% {elapsed:>3} elapsed";

/// A bar of `len` steps, hidden when stderr is not a terminal or `quiet` is set.
pub fn bar(len: u64, message: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_message(message.to_string());
    pb
}

/// A line for the person waiting, above the bar (which is drawn again below
/// it), or on stderr when there is no bar; wrapped to the terminal's width so
/// that the bar's redraws do not overwrite part of it.
pub fn notice(pb: &ProgressBar, text: &str) {
    let text = crate::report::wrap(text, crate::report::width(), "", "");
    let text = text.trim_end();
    if pb.is_hidden() {
        eprintln!("{text}");
    } else {
        pb.println(text);
    }
}

/// A spinner with `message` while something of unknown length runs (a hint's
/// look-ahead), hidden when stderr is not a terminal; cleared when dropped.
pub fn spinner(message: &str) -> Spinner {
    if !std::io::stderr().is_terminal() {
        return Spinner(ProgressBar::hidden());
    }
    let pb = ProgressBar::new_spinner();
    pb.set_message(message.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(120));
    Spinner(pb)
}

/// A spinner that clears its line when it goes.
pub struct Spinner(ProgressBar);

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

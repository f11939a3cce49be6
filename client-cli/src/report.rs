//! What a command wants printed, handed back to `main`, the only place that prints.

/// A command's report on stdout and its warnings for stderr.
#[derive(Debug, Default)]
pub struct Report {
    pub stdout: String,
    pub warnings: Vec<String>,
}

impl Report {
    pub fn text(stdout: String) -> Report {
        Report {
            stdout,
            warnings: Vec::new(),
        }
    }
}

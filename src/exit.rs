//! Exit statuses and how they combine.

/// How a run ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// 0: nothing to report (for `validate`: no game has an error).
    Clean = 0,
    /// 1: some game has an error.
    Findings = 1,
    /// 2: a usage error, or an input that could not be read.
    Error = 2,
}

impl ExitStatus {
    /// The more severe of two statuses.
    pub fn merge(self, other: ExitStatus) -> ExitStatus {
        self.max(other)
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_outrank_findings() {
        assert_eq!(ExitStatus::Findings.merge(ExitStatus::Error), ExitStatus::Error);
        assert_eq!(ExitStatus::Clean.merge(ExitStatus::Findings), ExitStatus::Findings);
    }
}

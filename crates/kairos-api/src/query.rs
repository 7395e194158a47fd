//! Query parameters: `api-version` on every operation; `$top`, `$skip` and `$filter` on the job
//! and history lists (spec §2).
//!
//! Parameter names match in any case; the first of repeated parameters counts; unknown ones are
//! ignored, as ARM ignores them.

use crate::error::ApiError;
use crate::{
    ACCEPTED_API_VERSIONS, API_VERSION, CLASSIC_API_VERSIONS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE,
};
use kairos_core::model::{JobExecutionStatus, JobState};

#[derive(Debug, Default)]
pub(crate) struct Query {
    api_version: Option<String>,
    top: Option<String>,
    skip: Option<String>,
    filter: Option<String>,
    /// Every other parameter, for the few operations that take their own (`op`, ...).
    others: Vec<(String, String)>,
}

/// `$top` and `$skip`, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Paging {
    pub top: usize,
    pub skip: usize,
}

impl Query {
    pub fn parse(query: Option<&str>) -> Query {
        let mut q = Query::default();
        for (key, value) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
            let slot = if key.eq_ignore_ascii_case("api-version") {
                &mut q.api_version
            } else if key.eq_ignore_ascii_case("$top") {
                &mut q.top
            } else if key.eq_ignore_ascii_case("$skip") {
                &mut q.skip
            } else if key.eq_ignore_ascii_case("$filter") {
                &mut q.filter
            } else {
                q.others.push((key.into_owned(), value.into_owned()));
                continue;
            };
            slot.get_or_insert_with(|| value.into_owned());
        }
        q
    }

    /// Another parameter (the first of that name, in any case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.others
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The api-version, which must be one of `ACCEPTED_API_VERSIONS`.
    pub fn api_version(&self) -> Result<&str, ApiError> {
        let also = ACCEPTED_API_VERSIONS[1..].join(" and ");
        match self.api_version.as_deref().map(str::trim) {
            None | Some("") => Err(ApiError::query_parameter(
                "api-version",
                format!("the query parameter 'api-version' is required; use api-version={API_VERSION}"),
            )),
            Some(v) if ACCEPTED_API_VERSIONS.contains(&v) => Ok(v),
            Some(v) => Err(ApiError::query_parameter(
                "api-version",
                format!(
                    "the api-version '{v}' is not supported; use {API_VERSION} ({also} are accepted too)"
                ),
            )),
        }
    }

    pub fn paging(&self) -> Result<Paging, ApiError> {
        let top = match &self.top {
            None => DEFAULT_PAGE_SIZE,
            Some(text) => match text.trim().parse::<usize>() {
                Ok(n) if (1..=MAX_PAGE_SIZE).contains(&n) => n,
                _ => {
                    return Err(ApiError::bad_request(
                        "$top",
                        format!("must be a whole number from 1 to {MAX_PAGE_SIZE}; got '{text}'"),
                    ))
                }
            },
        };
        let skip = match &self.skip {
            None => 0,
            Some(text) => match text.trim().parse::<u32>() {
                Ok(n) => n as usize,
                _ => {
                    return Err(ApiError::bad_request(
                        "$skip",
                        format!(
                            "must be a whole number from 0 to {}; got '{text}'",
                            u32::MAX
                        ),
                    ))
                }
            },
        };
        Ok(Paging { top, skip })
    }

    /// The `$filter` text when one was given (blank counts as none).
    pub fn filter(&self) -> Option<&str> {
        self.filter.as_deref().filter(|f| !f.trim().is_empty())
    }

    /// `$filter=state eq Enabled` on the job list.
    pub fn job_state_filter(&self) -> Result<Option<JobState>, ApiError> {
        let Some(text) = self.filter() else {
            return Ok(None);
        };
        let value = equality(text, "state", "jobs")?;
        JobState::parse(value).map(Some).ok_or_else(|| {
            ApiError::bad_request(
                "$filter",
                format!(
                    "'{value}' is not a job state; expected {}",
                    JobState::expected()
                ),
            )
        })
    }

    /// `$filter=status eq Failed` on the history list.
    pub fn history_status_filter(&self) -> Result<Option<JobExecutionStatus>, ApiError> {
        let Some(text) = self.filter() else {
            return Ok(None);
        };
        let value = equality(text, "status", "job history")?;
        JobExecutionStatus::parse(value).map(Some).ok_or_else(|| {
            ApiError::bad_request(
                "$filter",
                format!(
                    "'{value}' is not an execution status; expected {}",
                    JobExecutionStatus::expected()
                ),
            )
        })
    }
}

impl Query {
    /// The classic API's `api-version`: optional (its cloud-service paths have none), and when
    /// given one of `CLASSIC_API_VERSIONS`.
    pub fn classic_api_version(&self) -> Result<(), ApiError> {
        match self.api_version.as_deref().map(str::trim) {
            None => Ok(()),
            Some(v) if CLASSIC_API_VERSIONS.contains(&v) => Ok(()),
            Some(v) => Err(ApiError::query_parameter(
                "api-version",
                format!(
                    "the api-version '{v}' is not one of the classic API's; use api-version={}",
                    CLASSIC_API_VERSIONS[0]
                ),
            )),
        }
    }

    /// `$top` when given (the classic job list answers every job otherwise).
    pub fn has_top(&self) -> bool {
        self.top.is_some()
    }

    /// The classic history filter: `status eq failed`, `state eq completed`, or both joined by
    /// `and`.
    pub fn classic_history_filter(
        &self,
    ) -> Result<(Option<JobExecutionStatus>, Option<JobState>), ApiError> {
        let Some(text) = self.filter() else {
            return Ok((None, None));
        };
        let mut status = None;
        let mut state = None;
        for part in split_and(text) {
            let field = part.split_whitespace().next().unwrap_or_default();
            if field.eq_ignore_ascii_case("state") {
                let value = equality(part, "state", "job history")?;
                state = Some(JobState::parse(value).ok_or_else(|| {
                    ApiError::bad_request(
                        "$filter",
                        format!(
                            "'{value}' is not a job state; expected {}",
                            JobState::expected()
                        ),
                    )
                })?);
            } else {
                let value = equality(part, "status", "job history")?;
                status = Some(JobExecutionStatus::parse(value).ok_or_else(|| {
                    ApiError::bad_request(
                        "$filter",
                        format!(
                            "'{value}' is not an execution status; expected {}",
                            JobExecutionStatus::expected()
                        ),
                    )
                })?);
            }
        }
        Ok((status, state))
    }
}

/// The parts of `a eq x and b eq y` (`and` in any case).
fn split_and(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.to_ascii_lowercase().find(" and ") {
        parts.push(&rest[..at]);
        rest = &rest[at + 5..];
    }
    parts.push(rest);
    parts
}

/// The value of the one OData comparison the API supports: `{field} eq {value}`, the field and
/// `eq` in any case, the value bare or in single or double quotes.
fn equality<'a>(text: &'a str, field: &str, list: &str) -> Result<&'a str, ApiError> {
    let refuse = || {
        ApiError::bad_request(
            "$filter",
            format!(
                "the {list} list supports only '{field} eq VALUE'; got '{}'",
                text.trim()
            ),
        )
    };
    let mut words = text.split_whitespace();
    let (Some(f), Some(op), Some(value), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(refuse());
    };
    if !f.eq_ignore_ascii_case(field) || !op.eq_ignore_ascii_case("eq") {
        return Err(refuse());
    }
    let unquoted = ['\'', '"']
        .iter()
        .find_map(|q| value.strip_prefix(*q).and_then(|v| v.strip_suffix(*q)))
        .unwrap_or(value);
    Ok(unquoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(e: ApiError) -> (u16, String) {
        (
            e.status.as_u16(),
            e.body["error"]["code"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        )
    }

    #[test]
    fn api_version() {
        let ok = |q: &str| {
            Query::parse(Some(q))
                .api_version()
                .map(str::to_string)
                .map_err(status)
        };
        assert_eq!(ok("api-version=2016-03-01"), Ok("2016-03-01".into()));
        assert_eq!(ok("API-Version=2016-01-01&x=1"), Ok("2016-01-01".into()));
        assert_eq!(
            ok("api-version=2014-08-01-preview"),
            Ok("2014-08-01-preview".into())
        );
        let bad = (400, "MissingOrInvalidRequiredQueryParameter".to_string());
        assert_eq!(ok(""), Err(bad.clone()));
        assert_eq!(ok("api-version="), Err(bad.clone()));
        assert_eq!(ok("api-version=2015-01-01"), Err(bad));
    }

    #[test]
    fn paging() {
        let p = |q: &str| Query::parse(Some(q)).paging().map_err(|e| status(e).0);
        assert_eq!(p(""), Ok(Paging { top: 100, skip: 0 }));
        assert_eq!(p("$top=1&$skip=7"), Ok(Paging { top: 1, skip: 7 }));
        assert_eq!(p("%24top=100&$TOP=3"), Ok(Paging { top: 100, skip: 0 }));
        for bad in [
            "$top=0",
            "$top=101",
            "$top=-1",
            "$top=x",
            "$top=",
            "$skip=-1",
            "$skip=1.5",
        ] {
            assert_eq!(p(bad), Err(400), "{bad}");
        }
    }

    #[test]
    fn filters() {
        let state = |q: &str| {
            Query::parse(Some(q))
                .job_state_filter()
                .map_err(|e| status(e).0)
        };
        assert_eq!(state(""), Ok(None));
        assert_eq!(state("$filter=%20"), Ok(None));
        assert_eq!(
            state("$filter=state%20eq%20Enabled"),
            Ok(Some(JobState::Enabled))
        );
        assert_eq!(
            state("$filter=State+EQ+'disabled'"),
            Ok(Some(JobState::Disabled))
        );
        assert_eq!(
            state("$filter=%20state%20%20eq%20%22Faulted%22%20"),
            Ok(Some(JobState::Faulted))
        );
        for bad in [
            "$filter=state%20eq%20Blue",
            "$filter=color%20eq%20Blue",
            "$filter=state%20ne%20Enabled",
            "$filter=state%20eq%20Enabled%20and%20x",
            "$filter=status%20eq%20Failed",
            "$filter=state",
        ] {
            assert_eq!(state(bad), Err(400), "{bad}");
        }
        let history = |q: &str| {
            Query::parse(Some(q))
                .history_status_filter()
                .map_err(|e| status(e).0)
        };
        assert_eq!(
            history("$filter=status%20eq%20'Failed'"),
            Ok(Some(JobExecutionStatus::Failed))
        );
        assert_eq!(
            history("$filter=status eq completed"),
            Ok(Some(JobExecutionStatus::Completed))
        );
        assert_eq!(history("$filter=state%20eq%20Failed"), Err(400));
        let classic = |q: &str| {
            Query::parse(Some(q))
                .classic_history_filter()
                .map_err(|e| status(e).0)
        };
        assert_eq!(classic(""), Ok((None, None)));
        assert_eq!(
            classic("$filter=status%20eq%20failed"),
            Ok((Some(JobExecutionStatus::Failed), None))
        );
        assert_eq!(
            classic("$filter=state%20eq%20completed"),
            Ok((None, Some(JobState::Completed)))
        );
        assert_eq!(
            classic("$filter=state eq 'faulted' AND status eq completed"),
            Ok((Some(JobExecutionStatus::Completed), Some(JobState::Faulted)))
        );
        for bad in [
            "$filter=state%20eq%20blue",
            "$filter=color%20eq%20x",
            "$filter=status%20eq%20enabled",
        ] {
            assert_eq!(classic(bad), Err(400), "{bad}");
        }
        let version = |q: &str| {
            Query::parse(Some(q))
                .classic_api_version()
                .map_err(|e| status(e).0)
        };
        assert_eq!(version(""), Ok(()));
        assert_eq!(version("api-version=2014-04-01"), Ok(()));
        assert_eq!(version("api-version=2016-03-01"), Err(400));
    }
}

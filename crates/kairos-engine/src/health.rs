//! Readiness, for `GET /readyz` (docs/semantics.md, "Health, readiness and metrics"): the
//! store answers a trivial read, its schema is the one this Kairos writes, and the runner is
//! running. Each check says why when it fails.

use crate::db::Dialect;
use crate::engine::Engine;
use crate::params;

/// One readiness check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// `store`, `migrations` or `runner`.
    pub name: &'static str,
    pub ok: bool,
    /// Why it failed, or what was found.
    pub detail: String,
}

/// Every check, in order: `store`, `migrations`, `runner`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readiness {
    pub checks: Vec<Check>,
}

impl Readiness {
    pub fn ready(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }
}

impl Engine {
    /// Whether this engine can do its work now (blocking: it reads the database).
    pub fn readiness(&self) -> Readiness {
        let store = &self.inner.store;
        let dialect = store.dialect();
        let (newest, sql) = match dialect {
            Dialect::Sqlite => (
                crate::store::migrations::MIGRATIONS.len() as i64,
                "PRAGMA user_version",
            ),
            Dialect::Postgres => (
                crate::store::pg_migrations::MIGRATIONS.len() as i64,
                "SELECT version FROM kairos_schema WHERE id = 1",
            ),
        };
        let read = store.read(|conn| {
            conn.query_row("SELECT 1", params![], |_| Ok(()))?;
            conn.query_row(sql, params![], |r| r.get::<i64>(0))
        });
        let mut checks = Vec::with_capacity(3);
        match read {
            Ok(version) => {
                checks.push(Check {
                    name: "store",
                    ok: true,
                    detail: "the database answers".into(),
                });
                let (ok, detail) = if version == newest {
                    (true, format!("schema version {version}"))
                } else if version < newest {
                    (
                        false,
                        format!("the database has schema version {version}, not {newest}: migrations are not applied"),
                    )
                } else {
                    (
                        false,
                        format!("the database has schema version {version}, newer than the {newest} this Kairos knows"),
                    )
                };
                checks.push(Check {
                    name: "migrations",
                    ok,
                    detail,
                });
            }
            Err(e) => {
                self.inner.metrics.store_error(&e);
                checks.push(Check {
                    name: "store",
                    ok: false,
                    detail: format!("the database does not answer: {e}"),
                });
                checks.push(Check {
                    name: "migrations",
                    ok: false,
                    detail: "not checked: the database does not answer".into(),
                });
            }
        }
        let running = self.inner.metrics.runner_running();
        checks.push(Check {
            name: "runner",
            ok: running,
            detail: if running {
                "running".into()
            } else {
                "the runner is not running (never started, stopped, or its loop ended)".into()
            },
        });
        Readiness { checks }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Database, Engine, EngineConfig};

    #[tokio::test]
    async fn ready_only_while_the_runner_runs() {
        let engine = Engine::open(EngineConfig::new(Database::Memory)).unwrap();
        let before = engine.readiness();
        assert!(!before.ready());
        assert_eq!(
            before
                .checks
                .iter()
                .map(|c| (c.name, c.ok))
                .collect::<Vec<_>>(),
            [("store", true), ("migrations", true), ("runner", false)]
        );
        let runner = engine.start_runner();
        runner.asleep().await;
        assert!(engine.readiness().ready(), "{:?}", engine.readiness());
        runner.shutdown().await;
        let after = engine.readiness();
        assert!(!after.ready());
        assert!(after.checks[2].detail.contains("not running"));
    }
}

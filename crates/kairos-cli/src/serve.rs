//! `kairos serve`: the scheduler and the REST API in one process, until SIGINT or SIGTERM.
//!
//! Contract (DESIGN.md): once ready, exactly one line `listening on http://ADDR` (`https://`
//! with `--tls-cert`) on stdout; logs on stderr (`RUST_LOG`, default `info`; `--log-format
//! json`: one JSON object per line), never with the token or any secret. Bad arguments,
//! an address that cannot be bound, an unusable data
//! directory, a token shorter than 32 characters, unreadable TLS files and a `--database` URL
//! that is wrong in itself (not a URL, a bad `sslmode`, an unreadable `sslrootcert`) exit with
//! code 2 and the ARM error body on stderr, like the other commands; a database that cannot be
//! opened (unreachable, password refused, TLS handshake failed) exits with 1.
//!
//! On a network: a non-loopback `--listen` over plain http is refused unless `--insecure-http`
//! (the bearer token would cross the network in clear text); `--tls-cert`/`--tls-key` serve
//! HTTPS. The connection cap and the header and body timeouts are `kairos_api::ServeConfig`'s.
//!
//! The signal handlers are installed before the line is printed, so a client that stops the
//! server right after reading it gets a clean exit (code 0), never the default signal death.

use crate::commands::report;
use clap::Args;
use kairos_api::ServeConfig;
use kairos_core::FieldError;
use kairos_engine::store::SqliteSync;
use kairos_engine::{Database, Engine, EngineConfig};
use kairos_local::{api_token, create_private, data_dir, DATABASE_FILE};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The default address: loopback, on a fixed port so scripts can rely on it.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7010";
/// How long requests in flight may take to finish once a stop signal came.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);
const EXIT_FAILURE: u8 = 1;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on, IP:PORT (localhost:PORT works too); port 0 picks a free port.
    #[arg(long, default_value = DEFAULT_LISTEN)]
    listen: String,
    /// Directory of the database (kairos.db) and the api-token file;
    /// default: the platform data directory (~/.local/share/kairos on Linux).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Serve HTTPS with this PEM certificate chain (leaf first); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Allow plain http on a non-loopback --listen address (the token then crosses the network
    /// in clear text; for use behind a TLS-terminating proxy).
    #[arg(long, conflicts_with = "tls_cert")]
    insecure_http: bool,
    /// Open connections at most; further ones are closed at once.
    #[arg(long, value_name = "N", default_value_t = ServeConfig::DEFAULT_MAX_CONNECTIONS as u32,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_connections: u32,
    /// Seconds a client has to send the TLS handshake and each request head (also the idle
    /// keep-alive time).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    header_read_timeout: Duration,
    /// Seconds a client has to send a request body.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    body_read_timeout: Duration,
    /// Refuse to send actions (and OAuth token requests) to loopback, private, link-local and
    /// other non-public addresses, checked on the resolved addresses at connect time.
    #[arg(long)]
    deny_private_targets: bool,
    /// Accept jobs whose action or error action is `Command` over the API. They run programs as
    /// the user who runs this server, so anyone with the API token could; off by default.
    #[arg(long)]
    allow_commands: bool,
    /// The database: a PostgreSQL URL (postgres://user:password@host:port/database), which
    /// several servers may share, each running jobs; default: the SQLite file kairos.db in
    /// --data-dir. Also KAIROS_DATABASE_URL.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// On PostgreSQL: seconds after which a server that stopped beating its heart (killed,
    /// cut off) has its claimed work taken over by the others.
    #[arg(long, value_name = "SECONDS", default_value = "20", value_parser = takeover_seconds)]
    takeover_after: Duration,
    /// Serve GET /metrics without the API token (for a Prometheus scraper on a trusted network);
    /// GET /healthz and /readyz never need it.
    #[arg(long)]
    metrics_without_token: bool,
    /// How the logs on stderr look: `text` (for people) or `json` (one JSON object per line,
    /// for log collectors).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// On SQLite: `full` syncs every commit before the API answers, so what was acknowledged
    /// survives a power loss; `normal` syncs at checkpoints (faster writes; after a power loss
    /// the database is intact but the last writes may be gone). PostgreSQL has its own setting
    /// (synchronous_commit).
    #[arg(long, value_name = "MODE", value_enum, default_value_t = SqliteSyncArg::Full)]
    sqlite_sync: SqliteSyncArg,
}

/// `--sqlite-sync`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SqliteSyncArg {
    Full,
    Normal,
}

/// `--log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// The takeover time: from 1 to 30 seconds.
fn takeover_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (1.0..=30.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a number of seconds from 1 to 30")),
    }
}

/// A timeout in seconds, fractions allowed: more than 0, at most an hour.
fn seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "'{text}' is not a number of seconds from 0 (exclusive) to 3600"
        )),
    }
}

pub fn serve(args: &ServeArgs) -> ExitCode {
    let addr = match parse_listen(&args.listen) {
        Ok(addr) => addr,
        Err(message) => return report(&FieldError::bad_request("--listen", message).into()),
    };
    let tls_files = args.tls_cert.as_deref().zip(args.tls_key.as_deref());
    if !addr.ip().is_loopback() && tls_files.is_none() && !args.insecure_http {
        return report(
            &FieldError::bad_request(
                "--listen",
                format!(
                    "{addr} is not a loopback address, and plain http would send the API token \
                     across the network in clear text; serve HTTPS with --tls-cert FILE \
                     --tls-key FILE, or pass --insecure-http to accept that (e.g. behind a \
                     TLS-terminating proxy)"
                ),
            )
            .into(),
        );
    }
    let dir = match data_dir(args.data_dir.as_deref()) {
        Ok(dir) => dir,
        Err(e) => return report(&FieldError::bad_request("--data-dir", e.to_string()).into()),
    };
    init_logging(args.log_format);
    let token = match api_token(&dir) {
        Ok(token) => token,
        Err(message) => {
            let from_env = std::env::var("KAIROS_API_TOKEN").is_ok_and(|t| !t.trim().is_empty());
            let target = if from_env {
                "KAIROS_API_TOKEN"
            } else {
                "--data-dir"
            };
            return report(&FieldError::bad_request(target, message.to_string()).into());
        }
    };
    let tls = match tls_files.map(|(cert, key)| kairos_api::load_tls(cert, key)) {
        None => None,
        Some(Ok(acceptor)) => Some(acceptor),
        Some(Err(e)) => {
            return report(&FieldError::bad_request("--tls-cert", e.to_string()).into())
        }
    };
    let config = ServeConfig {
        tls,
        header_read_timeout: args.header_read_timeout,
        body_read_timeout: args.body_read_timeout,
        max_connections: args.max_connections as usize,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            return fail(
                "InternalError",
                &format!("cannot start the async runtime: {e}"),
            )
        }
    };
    let code = runtime.block_on(run(
        addr,
        dir,
        token,
        config,
        Guards {
            deny_private_targets: args.deny_private_targets,
            allow_commands: args.allow_commands,
            database: args
                .database
                .clone()
                .or_else(|| std::env::var("KAIROS_DATABASE_URL").ok())
                .filter(|url| !url.trim().is_empty()),
            takeover_after: args.takeover_after,
            metrics_without_token: args.metrics_without_token,
            sqlite_sync: match args.sqlite_sync {
                SqliteSyncArg::Full => SqliteSync::Full,
                SqliteSyncArg::Normal => SqliteSync::Normal,
            },
        },
    ));
    // Engine calls still on the blocking pool get a moment; the database stays consistent
    // either way (every change is one transaction).
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}

/// What the server refuses or allows beyond the API's own checks.
#[derive(Debug, Clone)]
struct Guards {
    deny_private_targets: bool,
    allow_commands: bool,
    /// A PostgreSQL URL; `None`: the SQLite file in the data directory.
    database: Option<String>,
    takeover_after: Duration,
    metrics_without_token: bool,
    sqlite_sync: SqliteSync,
}

async fn run(
    addr: SocketAddr,
    dir: PathBuf,
    token: String,
    config: ServeConfig,
    guards: Guards,
) -> ExitCode {
    let Guards {
        deny_private_targets,
        allow_commands,
        database: database_url,
        takeover_after,
        metrics_without_token,
        sqlite_sync,
    } = guards;
    let mut signals = match kairos_local::shutdown::StopRequests::install() {
        Ok(signals) => signals,
        Err(e) => {
            return fail(
                "InternalError",
                &format!("cannot install signal handlers: {e}"),
            )
        }
    };
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(e) => {
            return report(
                &FieldError::bad_request("--listen", format!("cannot listen on {addr}: {e}"))
                    .into(),
            )
        }
    };
    let local = match listener.local_addr() {
        Ok(local) => local,
        Err(e) => {
            return fail(
                "InternalError",
                &format!("cannot read the bound address: {e}"),
            )
        }
    };
    let (database, shown) = match database_url {
        Some(url) => match Database::parse(&url) {
            Database::Postgres(url) => {
                let shown = kairos_engine::store::PgStore::describe_url(&url);
                (Database::Postgres(url), shown)
            }
            _ => {
                return report(
                    &FieldError::bad_request(
                        "--database",
                        "must be a PostgreSQL URL, postgres://user:password@host:port/database (without it, the SQLite file in --data-dir is used)",
                    )
                    .into(),
                )
            }
        },
        None => {
            let database = dir.join(DATABASE_FILE);
            // Created owner-only before SQLite opens it: its -wal and -shm files take the same
            // mode, and the database holds the jobs' secrets.
            if let Err(e) = create_private(&database) {
                return report(
                    &FieldError::bad_request(
                        "--data-dir",
                        format!("cannot create {}: {e}", database.display()),
                    )
                    .into(),
                );
            }
            let shown = database.display().to_string();
            (Database::File(database), shown)
        }
    };
    let mut engine_config = EngineConfig::new(database);
    // Tests only: KAIROS_TEST_NOW starts the server's clock at a chosen instant, as it does the
    // window's and the tray runner's; a value that does not parse stops the start (exit 2).
    engine_config.clock = match kairos_local::test_clock::clock_from_env() {
        Ok(clock) => clock,
        Err(e) => {
            return report(
                &FieldError::bad_request(
                    kairos_local::test_clock::TEST_NOW_VARIABLE,
                    e.to_string(),
                )
                .into(),
            )
        }
    };
    engine_config.actions.deny_private_targets = deny_private_targets;
    engine_config.takeover_after = takeover_after;
    engine_config.sqlite_sync = sqlite_sync;
    let engine = match Engine::open(engine_config) {
        Ok(engine) => engine,
        // The URL's own mistakes (a bad sslmode, an unreadable sslrootcert) are bad input.
        Err(kairos_engine::EngineError::Invalid(e)) => return report(&e),
        Err(e) => {
            eprintln!("{}", kairos_api::engine_error_body(e));
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    tracing::info!(database = %shown, "database open");
    let scheme = if config.tls.is_some() {
        "https"
    } else {
        "http"
    };
    if !local.ip().is_loopback() && config.tls.is_none() {
        tracing::warn!(%local, "--insecure-http: the API is reachable from the network over plain HTTP");
    }
    if deny_private_targets {
        tracing::info!("actions may not reach private or local addresses (--deny-private-targets)");
    }

    let runner = engine.start_runner();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    if allow_commands {
        tracing::warn!(
            "--allow-commands: API clients may create jobs that run programs as this user"
        );
    }
    if metrics_without_token {
        tracing::info!("--metrics-without-token: GET /metrics is served without the API token");
    }
    let router = kairos_api::router_with_ops(
        engine,
        token,
        kairos_api::ApiOptions { allow_commands },
        kairos_api::OpsOptions {
            metrics_without_token,
        },
    );
    let mut server = tokio::spawn(kairos_api::serve(listener, router, config, async {
        let _ = stopped.await;
    }));

    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "listening on {scheme}://{local}");
    let _ = stdout.flush();
    drop(stdout);
    tracing::info!(%local, "ready");

    let mut code = ExitCode::SUCCESS;
    tokio::select! {
        name = signals.next() => tracing::info!(signal = name, "stopping"),
        result = &mut server => {
            tracing::error!(?result, "the HTTP server stopped on its own");
            code = ExitCode::from(EXIT_FAILURE);
        }
    }
    let _ = stop.send(());
    // The runner stops starting attempts at the stop request itself, not after the drain:
    // the drain can take seconds (DRAIN_TIMEOUT), and work that comes due in them belongs to
    // the next start (docs/semantics.md "Stopping"), never to a server that is going away.
    let drain = async {
        if tokio::time::timeout(DRAIN_TIMEOUT, &mut server)
            .await
            .is_err()
        {
            tracing::warn!("requests still running after {DRAIN_TIMEOUT:?}; closing anyway");
            server.abort();
        }
    };
    let stopping = async {
        tokio::join!(drain, runner.shutdown());
    };
    tokio::select! {
        _ = stopping => {}
        name = signals.next() => {
            tracing::warn!(signal = name, "second signal: exiting without waiting");
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    tracing::info!("stopped");
    code
}

/// `IP:PORT`, or `localhost:PORT` for 127.0.0.1.
fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("localhost:") {
        Some(port) => port
            .parse::<u16>()
            .ok()
            .map(|p| SocketAddr::from(([127, 0, 0, 1], p))),
        None => text.parse::<SocketAddr>().ok(),
    };
    parsed.ok_or_else(|| {
        format!("'{text}' is not an address; use IP:PORT such as {DEFAULT_LISTEN} (port 0 picks a free port)")
    })
}

fn init_logging(format: LogFormat) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter);
    let _ = match format {
        LogFormat::Text => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        // One object per line: timestamp, level, target, the message and the event's fields
        // at the top level (`flatten_event`), never colors.
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_ansi(false)
            .try_init(),
    };
}

/// A failure that is not the caller's input: the ARM error body on stderr, exit code 1.
fn fail(code: &str, message: &str) -> ExitCode {
    eprintln!("{}", kairos_api::arm_error(code, message, None));
    ExitCode::from(EXIT_FAILURE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        assert_eq!(
            parse_listen("127.0.0.1:0"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 0)))
        );
        assert_eq!(
            parse_listen("localhost:7010"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 7010)))
        );
        assert_eq!(parse_listen("[::1]:80").map(|a| a.port()), Ok(80));
        for bad in [
            "",
            "7010",
            "127.0.0.1",
            "127.0.0.1:99999",
            "example.com:80",
            "localhost:x",
        ] {
            assert!(parse_listen(bad).is_err(), "{bad}");
        }
    }
}

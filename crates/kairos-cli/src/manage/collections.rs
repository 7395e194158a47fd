//! `kairos collections list|show|create|update|delete`.
//!
//! A collection made here is the desktop app's kind: subscription `local`, resource group
//! `desktop` when named plainly, location `local`, plan P20Premium (1,000 jobs, every minute)
//! unless `--plan` says otherwise.

use super::backend::{collection_key, Failure, Outcome, DESKTOP_SUBSCRIPTION};
use super::show::{collections_table, output};
use super::{Context, Target};
use clap::{Args, Subcommand};
use kairos_core::model::SkuName;
use serde_json::{json, Value};

/// The plan of a collection made without `--plan`: the desktop app's.
const DEFAULT_PLAN: SkuName = SkuName::P20Premium;

#[derive(Debug, Args)]
pub struct CollectionsArgs {
    #[command(flatten)]
    pub target: Target,
    #[command(subcommand)]
    command: CollectionsCommand,
}

#[derive(Debug, Subcommand)]
enum CollectionsCommand {
    /// List the collections of a subscription (`local`, the desktop's, by default).
    List {
        /// Subscription id.
        #[arg(long, default_value = DESKTOP_SUBSCRIPTION)]
        subscription: String,
        /// Only this resource group.
        #[arg(long, value_name = "NAME")]
        resource_group: Option<String>,
    },
    /// Show one collection.
    Show {
        /// NAME, or subscription/resourceGroup/name.
        collection: String,
    },
    /// Create a collection (exit 4 if the name is taken or the plan allows no more).
    Create {
        /// NAME (made in the desktop's namespace), or subscription/resourceGroup/name.
        collection: String,
        #[command(flatten)]
        settings: Settings,
    },
    /// Change a collection's plan, job quota or state.
    Update {
        /// NAME, or subscription/resourceGroup/name.
        collection: String,
        #[command(flatten)]
        settings: Settings,
        /// Enabled or Disabled: every job of the collection with it.
        #[arg(long, value_name = "STATE")]
        state: Option<String>,
    },
    /// Delete a collection with its jobs and their history.
    Delete {
        /// NAME, or subscription/resourceGroup/name.
        collection: String,
    },
}

#[derive(Debug, Args)]
struct Settings {
    /// Free, Standard or Premium (also P10Premium, P20Premium).
    #[arg(long, value_name = "PLAN")]
    plan: Option<String>,
    /// The most jobs the collection may hold (above the plan's default if you like).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_jobs: Option<u32>,
}

impl Settings {
    /// The `properties` these settings change.
    fn properties(&self) -> Outcome<serde_json::Map<String, Value>> {
        let mut properties = serde_json::Map::new();
        if let Some(plan) = &self.plan {
            properties.insert("sku".into(), json!({"name": parse_plan(plan)?.as_str()}));
        }
        if let Some(n) = self.max_jobs {
            properties.insert("quota".into(), json!({"maxJobCount": n}));
        }
        Ok(properties)
    }
}

/// A plan by its wire name in any case, or `Premium` for the larger premium plan.
fn parse_plan(text: &str) -> Outcome<SkuName> {
    if text.trim().eq_ignore_ascii_case("premium") {
        return Ok(SkuName::P20Premium);
    }
    SkuName::parse(text).ok_or_else(|| {
        Failure::bad_input(
            "--plan",
            format!(
                "'{text}' is not a plan; use Free, Standard or Premium (or {})",
                SkuName::expected()
            ),
        )
    })
}

fn parse_state(text: &str) -> Outcome<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "enabled" => Ok(true),
        "disabled" => Ok(false),
        _ => Err(Failure::bad_input(
            "--state",
            format!("'{text}' is not a collection state; use Enabled or Disabled"),
        )),
    }
}

impl CollectionsArgs {
    pub fn run(&self, context: &Context) -> Outcome<String> {
        let backend = &context.backend;
        let one = |body: Value| {
            output(context, &body, || {
                collections_table(std::slice::from_ref(&body), context.color)
            })
        };
        match &self.command {
            CollectionsCommand::List {
                subscription,
                resource_group,
            } => {
                let items = backend.list_collections(subscription, resource_group.as_deref())?;
                output(context, &Value::Array(items.clone()), || {
                    collections_table(&items, context.color)
                })
            }
            CollectionsCommand::Show { collection } => {
                one(backend.get_collection(&collection_key(collection)?)?)
            }
            CollectionsCommand::Create {
                collection,
                settings,
            } => {
                let key = collection_key(collection)?;
                let mut properties = settings.properties()?;
                properties
                    .entry("sku")
                    .or_insert_with(|| json!({"name": DEFAULT_PLAN.as_str()}));
                properties.insert("state".into(), json!("Enabled"));
                let body = json!({"location": "local", "properties": properties});
                one(backend.create_collection(&key, body)?)
            }
            CollectionsCommand::Update {
                collection,
                settings,
                state,
            } => {
                let key = collection_key(collection)?;
                let properties = settings.properties()?;
                let enabled = state.as_deref().map(parse_state).transpose()?;
                if properties.is_empty() && enabled.is_none() {
                    return Err(Failure::bad_input(
                        "",
                        "nothing to change; give --plan, --max-jobs or --state",
                    ));
                }
                if !properties.is_empty() {
                    backend.patch_collection(&key, json!({ "properties": properties }))?;
                }
                if let Some(enabled) = enabled {
                    backend.set_collection_enabled(&key, enabled)?;
                }
                one(backend.get_collection(&key)?)
            }
            CollectionsCommand::Delete { collection } => {
                let key = collection_key(collection)?;
                backend.delete_collection(&key)?;
                Ok(if context.json {
                    String::new()
                } else {
                    format!("deleted collection {collection}")
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_by_name_in_any_case() {
        assert_eq!(parse_plan("free").unwrap(), SkuName::Free);
        assert_eq!(parse_plan("Premium").unwrap(), SkuName::P20Premium);
        assert_eq!(parse_plan("p10premium").unwrap(), SkuName::P10Premium);
        let e = parse_plan("Gold").unwrap_err();
        assert_eq!(e.body["error"]["target"], "--plan");
    }
}

//! The walk over a deployment template's resources: Scheduler job collections and jobs (top-level
//! or nested in their collection), with `copy` loops and `condition`s, into an `ImportPlan`.

use super::eval::{join, Scope};
use super::{params, DeploymentContext, SCHEDULER_API_VERSIONS};
use crate::plan::{ImportPlan, PlannedCollection, PlannedJob, Skipped};
use kairos_core::document::from_value_at;
use kairos_core::model::{JobProperties, NamedCalendars};
use serde_json::{json, Map, Value};

const COLLECTION_TYPE: &str = "Microsoft.Scheduler/jobCollections";
const JOB_TYPE: &str = "Microsoft.Scheduler/jobCollections/jobs";

/// Read a deployment template (and its parameters file, standard or bare) into a plan.
pub fn import_template(
    template: &Value,
    parameters: Option<&Value>,
    ctx: &DeploymentContext,
) -> ImportPlan {
    let mut walk = Walk {
        scope: Scope::new(ctx),
        plan: ImportPlan::default(),
    };
    let Some(root) = template.as_object() else {
        walk.problem(
            "template",
            "",
            "a deployment template must be a JSON object",
        );
        return walk.plan;
    };
    let empty = Map::new();
    let declared = root
        .get("parameters")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    params::resolve(
        declared,
        parameters,
        &mut walk.scope,
        &mut walk.plan.problems,
    );
    if let Some(variables) = root.get("variables").and_then(Value::as_object) {
        if variables.contains_key("copy") {
            walk.problem(
                "variables.copy",
                "",
                "variable copy loops are not supported",
            );
        }
        walk.scope.set_variables(variables);
    }
    if root
        .get("functions")
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty())
    {
        walk.problem(
            "functions",
            "",
            "user-defined template functions are not supported",
        );
    }
    if root
        .get("outputs")
        .and_then(Value::as_object)
        .is_some_and(|o| !o.is_empty())
    {
        walk.note(
            "outputs",
            "outputs are not evaluated: an import deploys nothing to report",
        );
    }
    match root.get("resources") {
        Some(Value::Array(resources)) => {
            for (i, resource) in resources.iter().enumerate() {
                walk.resource(resource, format!("resources[{i}]"), None);
            }
        }
        Some(Value::Object(_)) => walk.problem(
            "resources",
            "",
            "resources with symbolic names (languageVersion 2.0) are not supported",
        ),
        _ => walk.problem("resources", "", "the template has no resources array"),
    }
    walk.plan
}

struct Walk<'a> {
    scope: Scope<'a>,
    plan: ImportPlan,
}

impl Walk<'_> {
    fn problem(&mut self, source: &str, path: &str, reason: impl std::fmt::Display) {
        let reason = if path.is_empty() {
            reason.to_string()
        } else {
            format!("{path}: {reason}")
        };
        self.plan.problems.push(Skipped {
            source: source.to_string(),
            reason,
        });
    }

    fn note(&mut self, source: &str, reason: &str) {
        self.plan.notes.push(Skipped {
            source: source.to_string(),
            reason: reason.to_string(),
        });
    }

    /// One resource as written: expands its `copy` loop, if any.
    fn resource(&mut self, raw: &Value, source: String, parent: Option<&str>) {
        let Some(copy) = raw.get("copy") else {
            return self.instance(raw, source, parent);
        };
        let loop_name = copy
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let count = copy.get("count").map(|c| self.scope.value(c));
        match count {
            Some(Ok(Value::Number(n))) if n.as_u64().is_some() => {
                for k in 0..n.as_u64().unwrap_or(0) {
                    self.scope.enter_copy(&loop_name, k as i64);
                    self.instance(raw, format!("{source} copy {k}"), parent);
                    self.scope.leave_copy();
                }
            }
            Some(Err((_, e))) => self.problem(&source, "copy.count", e),
            _ => self.problem(&source, "copy.count", "must be a whole number"),
        }
    }

    /// Evaluate a string field of the resource (type, name).
    fn text(&mut self, raw: &Value, field: &str, source: &str) -> Option<String> {
        match raw.get(field).map(|v| self.scope.value(v)) {
            Some(Ok(Value::String(s))) => Some(s),
            Some(Err((_, e))) => {
                self.problem(source, field, e);
                None
            }
            _ => {
                self.problem(source, field, "must be a string");
                None
            }
        }
    }

    fn instance(&mut self, raw: &Value, source: String, parent: Option<&str>) {
        if let Some(condition) = raw.get("condition") {
            match self.scope.value(condition) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => {
                    return self.note(
                        &source,
                        "its condition is false: not deployed, not imported",
                    )
                }
                Ok(other) => {
                    return self.problem(
                        &source,
                        "condition",
                        format!("must be a boolean, not {other}"),
                    )
                }
                Err((_, e)) => return self.problem(&source, "condition", e),
            }
        }
        let Some(kind) = self.text(raw, "type", &source) else {
            return;
        };
        let Some(name) = self.text(raw, "name", &source) else {
            return;
        };
        let is = |t: &str| kind.eq_ignore_ascii_case(t);
        let job = match parent {
            None if is(COLLECTION_TYPE) => return self.collection(raw, &source, &name),
            None if is(JOB_TYPE) => match name.split_once('/') {
                Some((c, j)) if !c.is_empty() && !j.is_empty() && !j.contains('/') => {
                    (c.to_string(), j.to_string())
                }
                _ => {
                    return self.problem(
                        &source,
                        "name",
                        format!("a top-level job is named 'collection/job', not '{name}'"),
                    )
                }
            },
            Some(c) if is("jobs") => (c.to_string(), name.clone()),
            Some(c) if is(JOB_TYPE) => match name.split_once('/') {
                Some((_, j)) => (c.to_string(), j.to_string()),
                None => (c.to_string(), name.clone()),
            },
            _ => {
                return self.note(
                    &source,
                    &format!(
                        "a resource of type '{kind}' is not a Scheduler resource: not imported"
                    ),
                )
            }
        };
        self.job(raw, &source, job.0, job.1);
    }

    /// `resources[1] (jobs 'nightly')`: where a problem is, for a person.
    fn label(source: &str, kind: &str, name: &str) -> String {
        format!("{source} ({kind} '{name}')")
    }

    fn api_version_ok(&mut self, raw: &Value, label: &str) -> bool {
        match raw.get("apiVersion").and_then(Value::as_str) {
            Some(v) if SCHEDULER_API_VERSIONS.contains(&v) => true,
            Some(v) => {
                let known = SCHEDULER_API_VERSIONS.join(", ");
                self.problem(
                    label,
                    "apiVersion",
                    format!("'{v}' is not a Scheduler API version ({known})"),
                );
                false
            }
            None => {
                self.problem(label, "apiVersion", "is required");
                false
            }
        }
    }

    fn collection_index(&mut self, name: &str) -> usize {
        let found = self.plan.collections.iter().position(|c| {
            c.name
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        });
        found.unwrap_or_else(|| {
            self.plan.collections.push(PlannedCollection {
                name: Some(name.to_string()),
                ..Default::default()
            });
            self.plan.collections.len() - 1
        })
    }

    fn collection(&mut self, raw: &Value, source: &str, name: &str) {
        let label = Self::label(source, "jobCollections", name);
        let index = self.collection_index(name);
        if self.plan.collections[index].body.is_some() {
            self.problem(&label, "name", "this job collection is declared twice");
        } else if self.api_version_ok(raw, &label) {
            let mut body = Map::new();
            let mut failed = false;
            for field in ["location", "tags", "properties"] {
                if let Some(value) = raw.get(field) {
                    match self.scope.value(value) {
                        Ok(v) => {
                            body.insert(field.to_string(), v);
                        }
                        Err((path, e)) => {
                            self.problem(&label, &join(field, &path), e);
                            failed = true;
                        }
                    }
                }
            }
            if !failed {
                body.entry("properties").or_insert_with(|| json!({}));
                self.old_premium_sku(raw, &mut body, &label);
                self.plan.collections[index].body = Some(Value::Object(body));
            }
        }
        if let Some(Value::Array(children)) = raw.get("resources") {
            for (j, child) in children.iter().enumerate() {
                self.resource(child, format!("{source}.resources[{j}]"), Some(name));
            }
        }
    }

    /// 2014-08-01-preview and 2016-01-01 name one premium plan `Premium`; 2016-03-01 (which
    /// Kairos speaks) split it into `P10Premium` and `P20Premium`. The old name is read as the
    /// smaller one, and said.
    fn old_premium_sku(&mut self, raw: &Value, body: &mut Map<String, Value>, label: &str) {
        let old_version = raw.get("apiVersion").and_then(Value::as_str) != Some("2016-03-01");
        let sku = body
            .get_mut("properties")
            .and_then(|p| p.pointer_mut("/sku/name"));
        if let Some(name) = sku.filter(|n| {
            old_version
                && n.as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case("premium"))
        }) {
            *name = json!("P10Premium");
            self.note(label, "properties.sku.name: the older API versions' 'Premium' is read as 2016-03-01's 'P10Premium'");
        }
    }

    fn job(&mut self, raw: &Value, source: &str, collection: String, name: String) {
        let label = Self::label(source, "jobs", &name);
        if !self.api_version_ok(raw, &label) {
            return;
        }
        let properties = match raw.get("properties").map(|p| self.scope.value(p)) {
            Some(Ok(p)) => p,
            Some(Err((path, e))) => return self.problem(&label, &join("properties", &path), e),
            None => return self.problem(&label, "properties", "is required"),
        };
        let index = self.collection_index(&collection);
        if let Err(errors) = self.validate(&properties, index) {
            for error in errors {
                self.problem(&label, "", error);
            }
            return;
        }
        if let Some(existing) = self.plan.collections[index]
            .jobs
            .iter()
            .find(|j| j.name.eq_ignore_ascii_case(&name))
        {
            let first = existing.source.clone();
            return self.problem(
                &label,
                "name",
                format!("the job is already declared at {first}"),
            );
        }
        self.plan.collections[index].jobs.push(PlannedJob {
            name,
            body: json!({ "properties": properties }),
            source: source.to_string(),
        });
    }

    /// The job as the engine will check it on write, so a plan never holds a job that cannot
    /// be written: calendars come from the collection's body in the template, when it has one.
    fn validate(&self, properties: &Value, collection: usize) -> Result<(), Vec<String>> {
        let sentences = |e: kairos_core::ValidationErrors| {
            e.errors().iter().map(|f| f.sentence()).collect::<Vec<_>>()
        };
        let props: JobProperties =
            from_value_at(properties.clone(), "properties").map_err(sentences)?;
        let calendars: Option<NamedCalendars> = self.plan.collections[collection]
            .body
            .as_ref()
            .and_then(|b| b.pointer("/properties/calendars"))
            .and_then(|c| from_value_at(c.clone(), "properties.calendars").ok());
        kairos_core::validate::validate_job_with(&props, self.scope.ctx.now, calendars.as_ref())
            .map(|_| ())
            .map_err(sentences)
    }
}

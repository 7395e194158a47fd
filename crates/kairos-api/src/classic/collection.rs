//! Job collections through the classic API: the `Resource` XML with its `IntrinsicSettings`
//! (plan and quota), and the name check.

use super::xml::{Element, Writer};
use super::{empty, xml};
use crate::error::ApiError;
use crate::handlers::call;
use crate::query::Query;
use crate::Api;
use axum::http::StatusCode;
use axum::response::Response;
use kairos_core::model::{JobCollectionDefinition, JobCollectionState, SkuName};
use kairos_engine::quota::limits;
use kairos_engine::CollectionKey;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The classic plans and the ARM SKU each one is.
const PLANS: &[(&str, SkuName)] = &[
    ("Free", SkuName::Free),
    ("Standard", SkuName::Standard),
    ("Premium", SkuName::P10Premium),
];

pub(super) async fn get(api: &Arc<Api>, key: CollectionKey) -> Result<Response, ApiError> {
    let def = call(api, move |e| e.get_collection(&key)).await?;
    let mut w = Writer::new("Resource");
    resource_body(&mut w, &def, "Succeeded");
    Ok(xml(StatusCode::OK, w.finish("Resource")))
}

/// Create or update the collection in its cloud service (which must exist).
pub(super) async fn put(
    api: &Arc<Api>,
    key: CollectionKey,
    resource: &Element,
) -> Result<Response, ApiError> {
    let service = key.clone();
    let region = call(api, move |e| {
        e.get_cloud_service(&service.subscription, &service.resource_group)
    })
    .await?
    .info
    .geo_region;
    let body = arm_body(resource, &region)?;
    let put = call(api, move |e| e.put_classic_collection(&key, body)).await?;
    Ok(empty(if put.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    }))
}

/// `POST .../jobcollections?op=checknameavailability&resourceName=NAME`.
pub(super) async fn check_name(
    api: &Arc<Api>,
    query: &Query,
    subscription: String,
    service: String,
) -> Result<Response, ApiError> {
    let op = query.get("op").unwrap_or_default();
    if !op.eq_ignore_ascii_case("checknameavailability") {
        return Err(ApiError::query_parameter(
            "op",
            format!("is '{op}'; POST on job collections takes op=checknameavailability"),
        ));
    }
    let name = query
        .get("resourceName")
        .filter(|n| !n.trim().is_empty())
        .ok_or_else(|| {
            ApiError::query_parameter(
                "resourceName",
                "the query parameter 'resourceName' is required",
            )
        })?
        .to_string();
    let key = CollectionKey::new(subscription, service, name.clone());
    if let Err(e) = key.check_names() {
        return available_xml(false, Some(&e.message));
    }
    let available = call(api, move |e| e.collection_name_available(&key)).await?;
    let reason = (!available)
        .then(|| format!("a job collection named '{name}' already exists in this cloud service"));
    available_xml(available, reason.as_deref())
}

/// The answer the Python client reads (`AvailabilityResponse`: `Result`, `Reason`), with the
/// service's `IsAvailable` beside it.
fn available_xml(available: bool, reason: Option<&str>) -> Result<Response, ApiError> {
    let mut w = Writer::new("AvailabilityResponse");
    w.text("Result", available).text("IsAvailable", available);
    if let Some(reason) = reason {
        w.text("Reason", reason);
    }
    Ok(xml(StatusCode::OK, w.finish("AvailabilityResponse")))
}

/// The ARM body of a classic `Resource`: plan → sku, quota as given, the cloud service's geo
/// region as location.
fn arm_body(resource: &Element, region: &str) -> Result<Value, ApiError> {
    if !resource.is("Resource") {
        return Err(ApiError::bad_request(
            "",
            format!(
                "the body must be a <Resource> element; got <{}>",
                resource.name
            ),
        ));
    }
    let settings = resource.child("IntrinsicSettings");
    let mut properties = Map::new();
    if let Some(plan) = settings.and_then(|s| s.text_of("Plan")) {
        let sku = PLANS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(plan))
            .map(|(_, sku)| *sku)
            .or_else(|| SkuName::parse(plan))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "IntrinsicSettings.Plan",
                    format!("'{plan}' is not a plan; expected Free, Standard or Premium"),
                )
            })?;
        properties.insert("sku".into(), json!({"name": sku.as_str()}));
    }
    if let Some(quota) = settings.and_then(|s| s.child("Quota")) {
        let mut q = Map::new();
        if let Some(count) = quota.text_of("MaxJobCount") {
            q.insert(
                "maxJobCount".into(),
                number("IntrinsicSettings.Quota.MaxJobCount", count)?,
            );
        }
        if let Some(max) = quota.child("MaxRecurrence") {
            let mut m = Map::new();
            if let Some(f) = max.text_of("Frequency") {
                m.insert("frequency".into(), json!(f));
            }
            if let Some(i) = max.text_of("Interval") {
                m.insert(
                    "interval".into(),
                    number("IntrinsicSettings.Quota.MaxRecurrence.Interval", i)?,
                );
            }
            q.insert("maxRecurrence".into(), Value::Object(m));
        }
        properties.insert("quota".into(), Value::Object(q));
    }
    Ok(json!({"location": region, "properties": properties}))
}

fn number(field: &str, text: &str) -> Result<Value, ApiError> {
    text.trim()
        .parse::<i64>()
        .map(|n| json!(n))
        .map_err(|_| ApiError::bad_request(field, format!("must be a whole number; got '{text}'")))
}

/// `<Resource>` of a collection, inside a cloud service's `<Resources>`.
pub(super) fn resource_xml(w: &mut Writer, def: &JobCollectionDefinition, result: &str) {
    w.open("Resource");
    resource_body(w, def, result);
    w.close("Resource");
}

/// What the classic API says of a collection: its effective plan and quota, and its state
/// (`Started` when enabled, `Suspended` when disabled or suspended).
fn resource_body(w: &mut Writer, def: &JobCollectionDefinition, result: &str) {
    let l = limits(def);
    let plan = PLANS
        .iter()
        .find(|(_, sku)| *sku == l.sku)
        .map_or(l.sku.as_str(), |(name, _)| name);
    let state = match def.properties.state {
        Some(JobCollectionState::Enabled) | None => "Started",
        Some(_) => "Suspended",
    };
    w.text("ResourceProviderNamespace", "scheduler")
        .text("Type", "jobcollections")
        .text("Name", def.name.as_deref().unwrap_or_default())
        .text("SchemaVersion", "1.1")
        .text("ETag", etag(def))
        .open("IntrinsicSettings")
        .text("Plan", plan)
        .open("Quota")
        .text("MaxJobCount", l.max_job_count)
        .open("MaxRecurrence")
        .text("Frequency", l.max_recurrence.0.as_str())
        .text("Interval", l.max_recurrence.1)
        .close("MaxRecurrence")
        .close("Quota")
        .close("IntrinsicSettings")
        .text("State", state)
        .open("OperationStatus")
        .text("Type", "Create")
        .text("Result", result)
        .close("OperationStatus");
}

/// A tag that changes whenever the definition does.
fn etag(def: &JobCollectionDefinition) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(def)
        .unwrap_or_default()
        .hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

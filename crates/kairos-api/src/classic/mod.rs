//! The classic (2015) Scheduler: the Service Management API with cloud services, served beside
//! the ARM routes on the same server and token (docs/semantics.md, "Classic API").
//!
//! Cloud services, job collections, name checks and operation status speak XML; jobs and
//! history speak the classic job JSON (`job.rs`). A cloud service is the resource group of the
//! same name, so everything here is the engine's ARM model seen through another door.
//!
//! Every write is one of the service's asynchronous operations: it completes before it is
//! answered, and its outcome (success, or the error) is kept under the answer's
//! `x-ms-request-id` for `GET /{subscriptionId}/operations/{id}`.

mod collection;
mod job;
mod route;
mod xml;

pub(crate) use route::Classic;

use crate::error::ApiError;
use crate::handlers::{call, JSON};
use crate::query::Query;
use crate::Api;
use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use kairos_engine::classic::{CloudService, CloudServiceInfo, OperationRecord};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use xml::{Element, Writer};

const XML: &str = "application/xml; charset=utf-8";

/// Answer a classic operation: its result, or its error in the classic shape (XML `<Error>`
/// where the client expects XML, the JSON error body for job calls).
pub(crate) async fn answer(
    api: &Arc<Api>,
    operation: Classic,
    parts: &Parts,
    body: Body,
    body_timeout: Duration,
    request_id: &str,
) -> Response {
    let speaks_xml = operation.speaks_xml();
    let subscription = subscription(&operation).to_string();
    let is_write = operation.is_write();
    let result = dispatch(api, operation, parts, body, body_timeout).await;
    if is_write {
        let record = OperationRecord {
            id: request_id.to_string(),
            http_status: match &result {
                Ok(r) => r.status().as_u16(),
                Err(e) => e.status.as_u16(),
            },
            error: result.as_ref().err().map(|e| {
                let (code, message) = code_and_message(e);
                (code, message)
            }),
        };
        let recorded = call(api, move |e| e.record_operation(&subscription, &record)).await;
        if let Err(e) = recorded {
            tracing::warn!(request_id, error = ?e.body, "the outcome of a classic operation could not be kept");
        }
    }
    match result {
        Ok(response) => response,
        Err(e) if speaks_xml => xml_error(e),
        Err(e) => e.into_response(),
    }
}

async fn dispatch(
    api: &Arc<Api>,
    operation: Classic,
    parts: &Parts,
    body: Body,
    body_timeout: Duration,
) -> Result<Response, ApiError> {
    check_version_header(parts)?;
    let query = Query::parse(parts.uri.query());
    query.classic_api_version()?;
    let read_text = |body| crate::body::read_text(&parts.headers, body, body_timeout);
    use Classic as C;
    match operation {
        C::ListCloudServices(subscription) => {
            let services = call(api, move |e| e.list_cloud_services(&subscription)).await?;
            let mut w = Writer::new("CloudServices");
            for service in &services {
                cloud_service_xml(&mut w, service);
            }
            Ok(xml(StatusCode::OK, w.finish("CloudServices")))
        }
        C::GetCloudService(subscription, name) => {
            let service = call(api, move |e| e.get_cloud_service(&subscription, &name)).await?;
            let mut w = Writer::new("CloudService");
            cloud_service_body(&mut w, &service);
            Ok(xml(StatusCode::OK, w.finish("CloudService")))
        }
        C::PutCloudService(subscription, name) => {
            let info = cloud_service_info(&Element::parse(&read_text(body).await?)?)?;
            let put = call(api, move |e| {
                e.put_cloud_service(&subscription, &name, info)
            })
            .await?;
            Ok(empty(if put.created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            }))
        }
        C::DeleteCloudService(subscription, name) => {
            call(api, move |e| e.delete_cloud_service(&subscription, &name)).await?;
            Ok(empty(StatusCode::OK))
        }
        C::GetOperation(subscription, id) => {
            let record = call(api, move |e| e.get_operation(&subscription, &id)).await?;
            Ok(xml(StatusCode::OK, operation_xml(&record)))
        }
        C::CheckCollectionName(subscription, service) => {
            collection::check_name(api, &query, subscription, service).await
        }
        C::GetCollection(key) => collection::get(api, key).await,
        C::PutCollection(key) => {
            let resource = Element::parse(&read_text(body).await?)?;
            collection::put(api, key, &resource).await
        }
        C::DeleteCollection(key) => {
            call(api, move |e| e.delete_collection(&key)).await?;
            Ok(empty(StatusCode::OK))
        }
        C::ListJobs(key) => {
            let state = query.job_state_filter()?;
            let (skip, top) = if query.has_top() {
                let p = query.paging()?;
                (p.skip, Some(p.top))
            } else {
                (query.paging()?.skip, None)
            };
            let jobs = call(api, move |e| {
                let mut jobs = Vec::new();
                let mut at = skip;
                loop {
                    let want = top.map_or(1000, |t| (t - jobs.len()).min(1000));
                    let page = e.list_jobs(&key, state, at, want)?;
                    at += page.items.len();
                    jobs.extend(page.items);
                    if !page.more || top.is_some_and(|t| jobs.len() >= t) {
                        return Ok(jobs);
                    }
                }
            })
            .await?;
            let items = jobs
                .iter()
                .map(|def| job::from_arm(def, job_name(def)))
                .collect::<Result<Vec<_>, _>>()?;
            json(StatusCode::OK, &Value::Array(items))
        }
        C::CreateJob(key) => {
            let id = uuid::Uuid::new_v4().to_string();
            let arm = job::to_arm(
                read_json(parts, body, body_timeout).await?,
                None,
                job::Write::Whole,
            )?;
            crate::commands::check(api.allow_commands, &arm)?;
            let job_key = key.job(&id);
            let put = call(api, move |e| e.create_job(&job_key, arm)).await?;
            let mut response = json(StatusCode::CREATED, &job::from_arm(&put.value, &id)?)?;
            if let Ok(location) =
                HeaderValue::from_str(&format!("{}/{id}", parts.uri.path().trim_end_matches('/')))
            {
                response.headers_mut().insert(header::LOCATION, location);
            }
            Ok(response)
        }
        C::GetJob(key) => {
            let name = key.name.clone();
            let def = call(api, move |e| e.get_job(&key)).await?;
            json(StatusCode::OK, &job::from_arm(&def, &name)?)
        }
        C::PutJob(key) => {
            let name = key.name.clone();
            let arm = job::to_arm(
                read_json(parts, body, body_timeout).await?,
                Some(&name),
                job::Write::Whole,
            )?;
            crate::commands::check(api.allow_commands, &arm)?;
            let put = call(api, move |e| e.put_job(&key, arm)).await?;
            let status = if put.created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            json(status, &job::from_arm(&put.value, &name)?)
        }
        C::PatchJob(key) => {
            let name = key.name.clone();
            let arm = job::to_arm(
                read_json(parts, body, body_timeout).await?,
                Some(&name),
                job::Write::Patch,
            )?;
            crate::commands::check(api.allow_commands, &arm)?;
            let def = call(api, move |e| e.patch_job(&key, arm)).await?;
            json(StatusCode::OK, &job::from_arm(&def, &name)?)
        }
        C::DeleteJob(key) => {
            call(api, move |e| e.delete_job(&key)).await?;
            Ok(empty(StatusCode::OK))
        }
        C::ListHistory(key) => {
            let paging = query.paging()?;
            let (status, state) = query.classic_history_filter()?;
            let name = key.name.clone();
            let page = call(api, move |e| {
                e.list_classic_history(&key, status, state, paging.skip, paging.top)
            })
            .await?;
            let items: Vec<Value> = page.items.iter().map(|r| job::history(&name, r)).collect();
            json(StatusCode::OK, &Value::Array(items))
        }
    }
}

async fn read_json(parts: &Parts, body: Body, timeout: Duration) -> Result<Value, ApiError> {
    crate::body::read_json(&parts.headers, body, timeout).await
}

/// `x-ms-version`, when sent, must be a service version date (`2014-10-01`, what the Python
/// client sends); Kairos answers every version the same way.
fn check_version_header(parts: &Parts) -> Result<(), ApiError> {
    let Some(value) = parts.headers.get("x-ms-version") else {
        return Ok(());
    };
    let text = value.to_str().unwrap_or_default().trim();
    if chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_err() {
        return Err(ApiError::bad_request(
            "x-ms-version",
            format!(
                "is '{}'; it must be a service version date such as 2014-10-01",
                text.escape_debug()
            ),
        ));
    }
    Ok(())
}

fn subscription(operation: &Classic) -> &str {
    use Classic as C;
    match operation {
        C::ListCloudServices(s)
        | C::GetCloudService(s, _)
        | C::PutCloudService(s, _)
        | C::DeleteCloudService(s, _)
        | C::GetOperation(s, _)
        | C::CheckCollectionName(s, _) => s,
        C::GetCollection(k)
        | C::PutCollection(k)
        | C::DeleteCollection(k)
        | C::ListJobs(k)
        | C::CreateJob(k) => &k.subscription,
        C::GetJob(k) | C::PutJob(k) | C::PatchJob(k) | C::DeleteJob(k) | C::ListHistory(k) => {
            &k.collection.subscription
        }
    }
}

/// The job's own name (`jc/job` in the ARM definition's `name`).
fn job_name(def: &kairos_core::model::JobDefinition) -> &str {
    def.name
        .as_deref()
        .and_then(|n| n.rsplit('/').next())
        .unwrap_or_default()
}

fn cloud_service_info(root: &Element) -> Result<CloudServiceInfo, ApiError> {
    if !root.is("CloudService") {
        return Err(ApiError::bad_request(
            "",
            format!(
                "the body must be a <CloudService> element; got <{}>",
                root.name
            ),
        ));
    }
    let field = |name: &str| root.text_of(name).unwrap_or_default().to_string();
    Ok(CloudServiceInfo {
        label: field("Label"),
        description: field("Description"),
        geo_region: field("GeoRegion"),
    })
}

fn cloud_service_xml(w: &mut Writer, service: &CloudService) {
    w.open("CloudService");
    cloud_service_body(w, service);
    w.close("CloudService");
}

fn cloud_service_body(w: &mut Writer, service: &CloudService) {
    w.text("Name", &service.name)
        .text("Label", &service.info.label)
        .text("Description", &service.info.description)
        .text("GeoRegion", &service.info.geo_region)
        .open("Resources");
    for def in &service.collections {
        collection::resource_xml(w, def, "Succeeded");
    }
    w.close("Resources");
}

fn operation_xml(record: &OperationRecord) -> String {
    let mut w = Writer::new("Operation");
    w.text("ID", &record.id)
        .text(
            "Status",
            if record.error.is_none() {
                "Succeeded"
            } else {
                "Failed"
            },
        )
        .text("HttpStatusCode", record.http_status);
    if let Some((code, message)) = &record.error {
        w.open("Error")
            .text("Code", code)
            .text("Message", message)
            .close("Error");
    }
    w.finish("Operation")
}

/// The error's code and its message, with the field it names in front.
fn code_and_message(e: &ApiError) -> (String, String) {
    let error = &e.body["error"];
    let code = error["code"]
        .as_str()
        .unwrap_or("InternalError")
        .to_string();
    let message = error["message"].as_str().unwrap_or_default();
    let message = match error["target"].as_str().filter(|t| !t.is_empty()) {
        Some(target) if !message.starts_with(target) => format!("{target}: {message}"),
        _ => message.to_string(),
    };
    (code, message)
}

/// `<Error><Code/><Message/></Error>`, the Service Management API's error body.
fn xml_error(e: ApiError) -> Response {
    let (code, message) = code_and_message(&e);
    let mut w = Writer::new("Error");
    w.text("Code", code).text("Message", message);
    let mut response = xml(e.status, w.finish("Error"));
    for (name, value) in e.headers {
        response.headers_mut().insert(name, value);
    }
    response
}

fn xml(status: StatusCode, text: String) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(XML));
    response
}

fn json(status: StatusCode, value: &Value) -> Result<Response, ApiError> {
    let bytes = serde_json::to_vec(value)
        .map_err(|e| ApiError::internal(format!("the response could not be serialized: {e}")))?;
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON));
    Ok(response)
}

fn empty(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

//! The consistency checks. Each returns findings (one sentence each, naming the
//! resource and what to change); an empty list means template and code agree.

use crate::actions::{self, EXEMPTIONS, Exemption, LOG_ACTIONS, SQS_EVENT_SOURCE_ACTIONS};
use crate::scan::{self, SdkCall, SourceFile};
use crate::template::{Intrinsic, Template, get_att_target, intrinsic, one_or_many, ref_target, scalar};
use serde_norway::Value;
use std::collections::{BTreeMap, BTreeSet};

/// A Lambda function of the template and the code it runs.
#[derive(Debug, Clone)]
pub struct FunctionCode {
    /// Logical id in the template (`ApiFunction`).
    pub logical_id: String,
    /// Cargo binary whose build becomes its `bootstrap` (`courier-api`).
    pub binary: String,
    /// Directory of its sources, for messages (`functions/api`).
    pub dir: String,
    /// Its own sources (not the libraries'); used to see what it reads and calls.
    pub sources: Vec<SourceFile>,
}

/// Everything the checks compare.
#[derive(Debug, Clone)]
pub struct Inputs<'a> {
    pub template: &'a Template,
    /// infra/build.mk, where SAM's `build-<LogicalId>` targets live.
    pub build_mk: &'a str,
    /// `courier_app::config::ALL_ENV`.
    pub all_env: &'a [&'a str],
    /// The sources of functions/aws/src (named relative to it).
    pub aws_sources: &'a [SourceFile],
    /// The sources of functions/app/src (named relative to it): the code between a
    /// function's own and functions/aws, through which it reaches SDK calls.
    pub app_sources: &'a [SourceFile],
    /// What `scan::scan(aws_sources)` found.
    pub calls: &'a [SdkCall],
    pub functions: &'a [FunctionCode],
    /// `courier_aws::bootstrap::MAX_RECEIVE_COUNT`.
    pub max_receive_count: u32,
    /// `courier_aws::bootstrap::DLQ_RETENTION_SECONDS`.
    pub dlq_retention_seconds: u32,
}

/// Environment variable names the wiring check follows (their presence is checked
/// against `ALL_ENV` first, so a rename in config.rs shows up there).
const ENV_TABLE: &str = "COURIER_TABLE";
const ENV_QUEUE_URL: &str = "COURIER_QUEUE_URL";
const ENV_QUEUE_ARN: &str = "COURIER_QUEUE_ARN";
const ENV_DLQ_URL: &str = "COURIER_DLQ_URL";
const ENV_SLOW_QUEUE_URL: &str = "COURIER_SLOW_QUEUE_URL";
const ENV_SCHEDULE_GROUP: &str = "COURIER_SCHEDULE_GROUP";
const ENV_SCHEDULER_ROLE_ARN: &str = "COURIER_SCHEDULER_ROLE_ARN";
const ENV_SCHEDULE_DLQ_ARN: &str = "COURIER_SCHEDULE_DLQ_ARN";
const ENV_PARAMETERS: &[(&str, &str)] = &[
    ("COURIER_ALLOW_HTTP_TARGETS", "AllowHttpTargets"),
    ("COURIER_ALLOW_PRIVATE_TARGETS", "AllowPrivateTargets"),
    ("COURIER_SQS_MAX_DELAY_SECONDS", "SqsMaxDelaySeconds"),
];

/// Actions each function needs from its role, and why.
pub type Required = BTreeMap<String, BTreeMap<String, String>>;

/// Runs every check; returns the findings and, per function, the actions it needs.
pub fn run(inputs: &Inputs) -> (Vec<String>, Required) {
    let mut findings = Vec::new();
    findings.extend(check_build(inputs));
    findings.extend(check_env(inputs));
    findings.extend(check_wiring(inputs));
    findings.extend(check_exemptions(inputs));
    let required = required_actions(inputs);
    findings.extend(check_iam(inputs, &required));
    findings.extend(check_queue(inputs));
    findings.extend(check_scheduler_role(inputs));
    findings.extend(check_alarms(inputs));
    findings.extend(check_table_settings(inputs.template));
    findings.extend(check_parameters(inputs.template));
    findings.extend(check_concurrency(inputs));
    findings.extend(check_schedules(inputs.template));
    findings.extend(check_api_throttling(inputs.template));
    findings.extend(check_update_order(inputs.template));
    findings.extend(crate::egress::check_static_egress(inputs.template));
    (findings, required)
}

fn str_at(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
}

/// Runtime, architecture, handler, makefile build and the matching make target.
pub fn check_build(inputs: &Inputs) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    for f in inputs.functions {
        let id = &f.logical_id;
        if t.resource_type(id) != Some("AWS::Serverless::Function") {
            out.push(format!("{id}: no AWS::Serverless::Function with this logical id"));
            continue;
        }
        let expect = |name: &str, want: &str, out: &mut Vec<String>| {
            let got = t.function_property(id, name).and_then(scalar);
            if got.as_deref() != Some(want) {
                out.push(format!("{id}: {name} is {got:?}, expected {want:?}"));
            }
        };
        expect("Runtime", "provided.al2023", &mut out);
        expect("Handler", "bootstrap", &mut out);
        expect("CodeUri", ".", &mut out);
        let arch: Vec<String> = t
            .function_property(id, "Architectures")
            .map(one_or_many)
            .unwrap_or_default()
            .into_iter()
            .filter_map(scalar)
            .collect();
        if arch != ["arm64"] {
            out.push(format!(
                "{id}: Architectures is {arch:?}, expected [arm64] (the build cross-compiles for aarch64)"
            ));
        }
        let method = str_at(
            t.resource(id)
                .and_then(|r| r.get("Metadata"))
                .and_then(|m| m.get("BuildMethod")),
        );
        if method != Some("makefile") {
            out.push(format!(
                "{id}: Metadata.BuildMethod is {method:?}, expected \"makefile\""
            ));
        }
        // SAM runs `make build-<LogicalId>`; the recipe must install this binary.
        let target = format!("build-{id}:");
        match inputs.build_mk.lines().position(|l| l.starts_with(&target)) {
            None => out.push(format!(
                "{id}: infra/build.mk has no `{target}` target (sam build runs it)"
            )),
            Some(at) => {
                let recipe: Vec<&str> = inputs
                    .build_mk
                    .lines()
                    .skip(at + 1)
                    .take_while(|l| l.starts_with('\t'))
                    .collect();
                let copies = recipe
                    .iter()
                    .any(|l| l.contains(&format!("/{}", f.binary)) && l.contains("$(ARTIFACTS_DIR)/bootstrap"));
                if !copies {
                    out.push(format!(
                        "{id}: the `{target}` recipe in infra/build.mk does not copy {} to $(ARTIFACTS_DIR)/bootstrap",
                        f.binary
                    ));
                }
            }
        }
    }
    out
}

/// The environment names a function reads: all of `ALL_ENV` when it builds its
/// configuration with `Config::from_env`.
fn reads_config(f: &FunctionCode) -> bool {
    f.sources
        .iter()
        .any(|s| scan::blank(&s.text).contains("Config::from_env"))
}

/// Each function sets exactly the `COURIER_` variables it reads.
pub fn check_env(inputs: &Inputs) -> Vec<String> {
    let mut out = Vec::new();
    let all: BTreeSet<&str> = inputs.all_env.iter().copied().collect();
    for f in inputs.functions {
        let id = &f.logical_id;
        if !reads_config(f) {
            out.push(format!(
                "{id}: {} does not call Config::from_env, so which variables it reads is unknown",
                f.dir
            ));
            continue;
        }
        let env = inputs.template.function_env(id);
        for name in &all {
            if !env.contains_key(*name) {
                out.push(format!(
                    "{id}: environment variable {name} (courier_app::config::ALL_ENV) is not set"
                ));
            }
        }
        for name in env
            .keys()
            .filter(|k| k.starts_with("COURIER_") && !all.contains(k.as_str()))
        {
            out.push(format!(
                "{id}: environment variable {name} is not in courier_app::config::ALL_ENV"
            ));
        }
    }
    out
}

/// What the variables point at: the table, the event source queue, its DLQ, the
/// schedule group, the Scheduler role, and the deployer's parameters.
pub fn check_wiring(inputs: &Inputs) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    for f in inputs.functions {
        let id = &f.logical_id;
        let env = t.function_env(id);
        let typed_ref = |name: &str, ty: &str, out: &mut Vec<String>| -> Option<String> {
            let v = env.get(name)?;
            match ref_target(v) {
                Some(r) if t.resource_type(&r) == Some(ty) => Some(r),
                _ => {
                    out.push(format!("{id}: {name} should be !Ref of an {ty}"));
                    None
                }
            }
        };
        let typed_arn = |name: &str, ty: &str, out: &mut Vec<String>| -> Option<String> {
            let v = env.get(name)?;
            match get_att_target(v, "Arn") {
                Some(r) if t.resource_type(&r) == Some(ty) => Some(r),
                _ => {
                    out.push(format!("{id}: {name} should be !GetAtt <{ty}>.Arn"));
                    None
                }
            }
        };
        typed_ref(ENV_TABLE, "AWS::DynamoDB::Table", &mut out);
        typed_ref(ENV_SCHEDULE_GROUP, "AWS::Scheduler::ScheduleGroup", &mut out);
        typed_arn(ENV_SCHEDULER_ROLE_ARN, "AWS::IAM::Role", &mut out);
        let queue = typed_ref(ENV_QUEUE_URL, "AWS::SQS::Queue", &mut out);
        let queue_arn = typed_arn(ENV_QUEUE_ARN, "AWS::SQS::Queue", &mut out);
        if queue.is_some() && queue_arn.is_some() && queue != queue_arn {
            out.push(format!(
                "{id}: {ENV_QUEUE_URL} ({queue:?}) and {ENV_QUEUE_ARN} ({queue_arn:?}) name different queues"
            ));
        }
        let dlq = typed_ref(ENV_DLQ_URL, "AWS::SQS::Queue", &mut out);
        if let (Some(q), Some(d)) = (&queue, &dlq)
            && redrive_target(t, q).as_ref() != Some(d)
        {
            out.push(format!(
                "{id}: {ENV_DLQ_URL} names {d}, but {q}'s RedrivePolicy sends to {:?}",
                redrive_target(t, q)
            ));
        }
        // The slow lane carries delivery messages: same dead-letter queue.
        let slow = typed_ref(ENV_SLOW_QUEUE_URL, "AWS::SQS::Queue", &mut out);
        if let (Some(s), Some(d)) = (&slow, &dlq)
            && redrive_target(t, s).as_ref() != Some(d)
        {
            out.push(format!(
                "{id}: {ENV_SLOW_QUEUE_URL} names {s}, whose RedrivePolicy should send to {d} like the delivery queue's"
            ));
        }
        for (name, param) in ENV_PARAMETERS {
            if let Some(v) = env.get(*name)
                && (ref_target(v).as_deref() != Some(*param) || !t.has_parameter(param))
            {
                out.push(format!("{id}: {name} should be !Ref {param} (a template parameter)"));
            }
        }
    }
    out
}

fn redrive_target(t: &Template, queue: &str) -> Option<String> {
    get_att_target(
        t.properties(queue)?.get("RedrivePolicy")?.get("deadLetterTargetArn")?,
        "Arn",
    )
}

/// The queue the function's first SQS event source reads, if it has one.
fn event_queue(t: &Template, function: &str) -> Option<(String, Value)> {
    event_queues(t, function).into_iter().next()
}

/// Every queue the function's SQS event sources read, with each event's properties.
fn event_queues(t: &Template, function: &str) -> Vec<(String, Value)> {
    t.function_events(function, "SQS")
        .into_iter()
        .filter_map(|(_, e)| {
            let props = e.get("Properties")?.clone();
            Some((get_att_target(props.get("Queue")?, "Arn")?, props))
        })
        .collect()
}

/// The queue a function's environment names as the delivery queue (by ARN).
fn delivery_queue(t: &Template, function: &str) -> Option<String> {
    t.function_env(function)
        .get(ENV_QUEUE_ARN)
        .and_then(|v| get_att_target(v, "Arn"))
}

/// A function's role and where its log group is.
fn role_of(t: &Template, function: &str) -> Option<String> {
    get_att_target(t.properties(function)?.get("Role")?, "Arn")
}

#[derive(Debug, Clone)]
struct Statement {
    label: String,
    actions: Vec<String>,
    resources: Vec<Value>,
}

/// The role's `Allow` statements (inline policies and AWS::IAM::Policy resources
/// attached to it), plus findings for what a least-privilege role must not have.
fn role_statements(t: &Template, role: &str) -> (Vec<Statement>, Vec<String>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let Some(props) = t.properties(role) else {
        return (out, vec![format!("{role}: role not found")]);
    };
    if props.get("ManagedPolicyArns").is_some() {
        bad.push(format!(
            "{role}: has ManagedPolicyArns; list the exact actions inline instead"
        ));
    }
    let mut documents: Vec<(String, &Value)> = Vec::new();
    if let Some(Value::Sequence(policies)) = props.get("Policies") {
        for p in policies {
            let name = str_at(p.get("PolicyName")).unwrap_or("?").to_owned();
            if let Some(doc) = p.get("PolicyDocument") {
                documents.push((format!("{role}/{name}"), doc));
            }
        }
    }
    for id in t.of_type("AWS::IAM::Policy") {
        let Some(p) = t.properties(&id) else { continue };
        let attached = p
            .get("Roles")
            .map(one_or_many)
            .unwrap_or_default()
            .into_iter()
            .any(|r| ref_target(r).as_deref() == Some(role));
        if attached && let Some(doc) = p.get("PolicyDocument") {
            documents.push((id.clone(), doc));
        }
    }
    for (label, doc) in documents {
        for (i, s) in doc
            .get("Statement")
            .map(one_or_many)
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            if str_at(s.get("Effect")) != Some("Allow") {
                continue;
            }
            let label = format!(
                "{label} statement {}",
                str_at(s.get("Sid")).map_or(i.to_string(), str::to_owned)
            );
            if s.get("NotAction").is_some() || s.get("NotResource").is_some() {
                bad.push(format!("{label}: NotAction/NotResource grants more than it names"));
            }
            let actions: Vec<String> = s
                .get("Action")
                .map(one_or_many)
                .unwrap_or_default()
                .into_iter()
                .filter_map(scalar)
                .collect();
            let resources: Vec<Value> = s
                .get("Resource")
                .map(one_or_many)
                .unwrap_or_default()
                .into_iter()
                .cloned()
                .collect();
            for a in actions.iter().filter(|a| a.contains('*')) {
                bad.push(format!("{label}: wildcard action {a}"));
            }
            if resources.iter().any(|r| r.as_str() == Some("*")) {
                bad.push(format!("{label}: Resource \"*\"; name the resource"));
            }
            out.push(Statement {
                label,
                actions,
                resources,
            });
        }
    }
    (out, bad)
}

/// Calls a deployed function makes: everything but the exempt ones.
fn runtime_calls(calls: &[SdkCall]) -> impl Iterator<Item = &SdkCall> {
    calls
        .iter()
        .filter(|c| !EXEMPTIONS.iter().any(|e| e.covers(&c.file, &c.function)))
        .filter(|c| !actions::CUSTOMER_ROLE_FILES.contains(&c.file.as_str()))
}

/// Names of the functions a binary may reach: starting from every function of its
/// own crate, every function of functions/app and functions/aws whose name a
/// reachable body mentions (called, or passed as a value), until nothing is added.
/// By name, so a trait method reaches every implementation of it: an
/// over-approximation, never missing a call. functions/app's `api` module counts
/// only for a binary whose sources name `courier_app::api`, and functions/aws's
/// `destinations` module (STS AssumeRole on customers' roles) only for one whose
/// sources name `courier_aws::destinations` or build the sender's outbound ports
/// (`Deployment::outbound`, which builds the destinations adapter): by name alone,
/// every binary that sends anything would reach the destination port's `send`.
pub fn reachable_names(f: &FunctionCode, app: &[SourceFile], aws: &[SourceFile]) -> BTreeSet<String> {
    let uses_api = f.sources.iter().any(|s| s.text.contains("courier_app::api"));
    let uses_destinations = f
        .sources
        .iter()
        .any(|s| s.text.contains("courier_aws::destinations") || s.text.contains(".outbound("));
    let space: Vec<(String, String)> = app
        .iter()
        .filter(|s| uses_api || !s.name.starts_with("api/"))
        .chain(
            aws.iter()
                .filter(|s| uses_destinations || !s.name.starts_with("destinations/")),
        )
        .flat_map(|s| {
            let b = scan::blank(&s.text);
            scan::functions(&b)
                .into_iter()
                .map(|span| (span.name.clone(), b[span.body_start..span.end].to_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    let defined: BTreeSet<&str> = space.iter().map(|(n, _)| n.as_str()).collect();
    let mut reached: BTreeSet<String> = BTreeSet::new();
    let mut mentioned: Vec<String> = f
        .sources
        .iter()
        .flat_map(|s| identifiers(&scan::blank(&s.text)))
        .collect();
    while let Some(name) = mentioned.pop() {
        if !defined.contains(name.as_str()) || !reached.insert(name.clone()) {
            continue;
        }
        for (_, body) in space.iter().filter(|(n, _)| *n == name) {
            mentioned.extend(identifiers(body));
        }
    }
    reached
}

/// The identifiers in blanked source text.
fn identifiers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            current.push(c);
        } else if !current.is_empty() {
            if !current.starts_with(|c: char| c.is_ascii_digit()) {
                out.push(std::mem::take(&mut current));
            } else {
                current.clear();
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Per function: action -> why it is needed, from the SDK calls its binary can
/// reach ([`reachable_names`]), not from every call of functions/aws.
pub fn required_actions(inputs: &Inputs) -> Required {
    let t = inputs.template;
    let mut required = Required::new();
    for f in inputs.functions {
        let mut need = BTreeMap::new();
        let reached = reachable_names(f, inputs.app_sources, inputs.aws_sources);
        let reachable = |c: &&SdkCall| reached.contains(c.function.rsplit("::").next().unwrap_or_default());
        for c in runtime_calls(inputs.calls).filter(reachable) {
            for a in &c.actions {
                need.entry((*a).to_owned()).or_insert_with(|| {
                    format!(
                        "functions/aws/src/{}:{} {} calls {}",
                        c.file, c.line, c.function, c.operation
                    )
                });
            }
        }
        if need.contains_key("scheduler:CreateSchedule") {
            need.insert(
                "iam:PassRole".to_owned(),
                "CreateSchedule passes the Scheduler role to the schedule".to_owned(),
            );
        }
        if event_queue(t, &f.logical_id).is_some() {
            for a in SQS_EVENT_SOURCE_ACTIONS {
                need.insert(
                    (*a).to_owned(),
                    "its SQS event source mapping polls with the function's role".to_owned(),
                );
            }
        }
        for a in LOG_ACTIONS {
            need.insert((*a).to_owned(), "the function writes its logs".to_owned());
        }
        required.insert(f.logical_id.clone(), need);
    }
    required
}

/// Each function's role allows exactly what it needs, on named resources.
pub fn check_iam(inputs: &Inputs, required: &Required) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    for f in inputs.functions {
        let id = &f.logical_id;
        let Some(role) = role_of(t, id) else {
            out.push(format!(
                "{id}: no Role: !GetAtt <AWS::IAM::Role>.Arn; SAM would generate a role with managed policies \
                 (AWSLambdaSQSQueueExecutionRole allows Resource \"*\")"
            ));
            continue;
        };
        let (statements, bad) = role_statements(t, &role);
        out.extend(bad);
        let allowed: BTreeSet<String> = statements.iter().flat_map(|s| s.actions.iter().cloned()).collect();
        let need = required.get(id).cloned().unwrap_or_default();
        for (action, why) in &need {
            if !allowed.contains(action) {
                out.push(format!("{id} ({role}): missing {action}: {why}"));
            }
        }
        for action in allowed.iter().filter(|a| !need.contains_key(*a)) {
            out.push(format!(
                "{id} ({role}): allows {action}, which nothing in the code needs"
            ));
        }
        // Resources of the actions whose target is known exactly.
        let resource_of = |action: &str| -> Vec<Value> {
            statements
                .iter()
                .filter(|s| s.actions.iter().any(|a| a == action))
                .flat_map(|s| s.resources.clone())
                .collect()
        };
        let only_arn_of = |action: &str, target: &str, out: &mut Vec<String>| {
            let rs = resource_of(action);
            if !rs.is_empty() && !rs.iter().all(|r| get_att_target(r, "Arn").as_deref() == Some(target)) {
                out.push(format!(
                    "{id} ({role}): {action} should be allowed on !GetAtt {target}.Arn only"
                ));
            }
        };
        // Event-source actions: exactly on the queues the function's SQS events name
        // (the sender drains the delivery queue and its DLQ).
        let queues: BTreeSet<String> = t
            .function_events(id, "SQS")
            .into_iter()
            .filter_map(|(_, e)| get_att_target(e.get("Properties")?.get("Queue")?, "Arn"))
            .collect();
        for a in SQS_EVENT_SOURCE_ACTIONS {
            let granted: BTreeSet<Option<String>> = resource_of(a).iter().map(|r| get_att_target(r, "Arn")).collect();
            let wanted: BTreeSet<Option<String>> = queues.iter().cloned().map(Some).collect();
            if !queues.is_empty() && granted != wanted {
                let names: Vec<&str> = queues.iter().map(String::as_str).collect();
                out.push(format!(
                    "{id} ({role}): {a} should be allowed on exactly the event source queues: {}",
                    names.join(", ")
                ));
            }
        }
        let env = t.function_env(id);
        if let Some(q) = env.get(ENV_QUEUE_ARN).and_then(|v| get_att_target(v, "Arn")) {
            // The delivery queue, and the slow lane's queue that steps move to.
            let slow = env.get(ENV_SLOW_QUEUE_URL).and_then(ref_target);
            let rs = resource_of("sqs:SendMessage");
            let allowed = |r: &Value| {
                let target = get_att_target(r, "Arn");
                target.as_deref() == Some(q.as_str()) || (target.is_some() && target == slow)
            };
            if !rs.iter().all(allowed) {
                out.push(format!(
                    "{id} ({role}): sqs:SendMessage should be allowed on !GetAtt {q}.Arn (and the slow lane's queue) only"
                ));
            }
        }
        if let Some(r) = env.get(ENV_SCHEDULER_ROLE_ARN).and_then(|v| get_att_target(v, "Arn")) {
            only_arn_of("iam:PassRole", &r, &mut out);
        }
        if let Some(g) = env.get(ENV_SCHEDULE_GROUP).and_then(ref_target) {
            let suffix = format!(":schedule/${{{g}}}/*");
            for r in resource_of("scheduler:CreateSchedule") {
                if !matches!(intrinsic(&r), Some(Intrinsic::Sub(s)) if s.ends_with(&suffix)) {
                    out.push(format!(
                        "{id} ({role}): scheduler:CreateSchedule should be allowed on !Sub ...{suffix} only"
                    ));
                }
            }
        }
        if let Some(table) = env.get(ENV_TABLE).and_then(ref_target) {
            let index = format!("${{{table}.Arn}}/index/*");
            for a in need.keys().filter(|a| a.starts_with("dynamodb:")) {
                for r in resource_of(a) {
                    let ok = get_att_target(&r, "Arn").as_deref() == Some(table.as_str())
                        || matches!(intrinsic(&r), Some(Intrinsic::Sub(s)) if s == index);
                    if !ok {
                        out.push(format!(
                            "{id} ({role}): {a} should be allowed on the table {table} and its indexes only"
                        ));
                    }
                }
            }
        }
        // Logs go to a log group the stack creates (retention set), and only there.
        match t
            .properties(id)
            .and_then(|p| p.get("LoggingConfig"))
            .and_then(|l| l.get("LogGroup"))
            .and_then(ref_target)
        {
            None => out.push(format!(
                "{id}: LoggingConfig.LogGroup should be !Ref a log group of the stack (with retention)"
            )),
            Some(group) => {
                if t.properties(&group).and_then(|p| p.get("RetentionInDays")).is_none() {
                    out.push(format!("{group}: no RetentionInDays"));
                }
                for a in LOG_ACTIONS {
                    only_arn_of(a, &group, &mut out);
                }
            }
        }
    }
    out
}

/// Exemptions must match a call, and the Lambda binaries must not reach exempt code.
pub fn check_exemptions(inputs: &Inputs) -> Vec<String> {
    let mut out = Vec::new();
    for e in EXEMPTIONS {
        // A file that is gone takes its exemption's point with it; a file that is
        // there but no longer makes the exempt call means the exemption is stale.
        let file_present = inputs.aws_sources.iter().any(|s| s.name == e.file);
        if file_present && !inputs.calls.iter().any(|c| e.covers(&c.file, &c.function)) {
            out.push(format!(
                "exemption {}{} matches no SDK call any more: remove it",
                e.file,
                describe(e)
            ));
        }
    }
    // Functions in functions/aws that reach exempt calls, directly or through other
    // functions of the crate (SqsQueue::ping -> SqsQueue::arn).
    let spans: Vec<(String, Vec<scan::FnSpan>, String)> = inputs
        .aws_sources
        .iter()
        .map(|s| {
            let b = scan::blank(&s.text);
            (s.name.clone(), scan::functions(&b), b)
        })
        .collect();
    let mut tainted: BTreeMap<String, String> = BTreeMap::new();
    for e in EXEMPTIONS {
        for c in inputs.calls.iter().filter(|c| e.covers(&c.file, &c.function)) {
            let short = c.function.rsplit("::").next().unwrap_or_default().to_owned();
            tainted
                .entry(short)
                .or_insert_with(|| format!("{} ({}: {})", c.function, c.operation, e.reason));
        }
    }
    loop {
        let mut grew = false;
        for (_, fns, b) in &spans {
            for f in fns {
                if tainted.contains_key(&f.name) {
                    continue;
                }
                let body = &b[f.body_start..f.end];
                if let Some((via, why)) = tainted.iter().find(|(n, _)| scan::calls_method(body, n)) {
                    let why = format!("{} -> {via}: {why}", f.qualified);
                    tainted.insert(f.name.clone(), why);
                    grew = true;
                    break;
                }
            }
        }
        if !grew {
            break;
        }
    }
    for f in inputs.functions {
        for s in &f.sources {
            for (name, why) in &tainted {
                if scan::calls_method(&s.text, name) {
                    out.push(format!(
                        "{}: {}/src/{} calls `.{name}(`, which reaches a call exempted from the IAM check ({why}); \
                         drop the exemption and grant the action",
                        f.logical_id, f.dir, s.name
                    ));
                }
            }
            let blanked = scan::blank(&s.text);
            for e in EXEMPTIONS.iter().filter(|e| e.function.is_none()) {
                let module = e.file.trim_end_matches(".rs");
                if blanked.contains(&format!("{module}::")) {
                    out.push(format!(
                        "{}: {}/src/{} uses functions/aws's {module} module, exempted from the IAM check ({})",
                        f.logical_id, f.dir, s.name, e.reason
                    ));
                }
            }
        }
    }
    out
}

fn describe(e: &Exemption) -> String {
    e.function.map_or_else(String::new, |f| format!(" {f}"))
}

fn number(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// The sender's queue: visibility 6x its timeout, redrive and DLQ as in bootstrap,
/// and the event source settings the design relies on.
pub fn check_queue(inputs: &Inputs) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    let mut sources = 0;
    for f in inputs.functions {
        let id = &f.logical_id;
        // Every SQS event source of the function: Lambda refuses to create a mapping
        // whose queue's visibility timeout is below the function's timeout (SQS's
        // default is 30 s), and AWS advises six times it.
        for (queue, props) in event_queues(t, id) {
            sources += 1;
            let timeout = number(t.function_property(id, "Timeout"));
            let visibility = number(t.properties(&queue).and_then(|p| p.get("VisibilityTimeout")));
            match (timeout, visibility) {
                (Some(tmo), Some(vis)) if vis >= 6 * tmo => {}
                (Some(tmo), vis) if vis.unwrap_or(30) < tmo => out.push(format!(
                    "{queue}: VisibilityTimeout {vis:?} (SQS default 30) is below {id}'s Timeout {tmo}: Lambda refuses \
                 this event source mapping and the deployment rolls back; it should be 6 x {id}'s Timeout"
                )),
                _ => out.push(format!(
                    "{queue}: VisibilityTimeout {visibility:?} should be 6 x {id}'s Timeout {timeout:?} (or more)"
                )),
            }
            let redrive = t.properties(&queue).and_then(|p| p.get("RedrivePolicy"));
            if number(redrive.and_then(|r| r.get("maxReceiveCount"))) != Some(u64::from(inputs.max_receive_count)) {
                out.push(format!(
                    "{queue}: RedrivePolicy.maxReceiveCount should be {} (courier_aws::bootstrap::MAX_RECEIVE_COUNT)",
                    inputs.max_receive_count
                ));
            }
            match redrive_target(t, &queue) {
                None => out.push(format!(
                    "{queue}: no RedrivePolicy.deadLetterTargetArn: !GetAtt <DLQ>.Arn"
                )),
                Some(dlq) => {
                    let retention = number(t.properties(&dlq).and_then(|p| p.get("MessageRetentionPeriod")));
                    if retention != Some(u64::from(inputs.dlq_retention_seconds)) {
                        out.push(format!(
                        "{dlq}: MessageRetentionPeriod {retention:?} should be {} (courier_aws::bootstrap::DLQ_RETENTION_SECONDS)",
                        inputs.dlq_retention_seconds
                    ));
                    }
                }
            }
            let types: Vec<String> = props
                .get("FunctionResponseTypes")
                .map(one_or_many)
                .unwrap_or_default()
                .into_iter()
                .filter_map(scalar)
                .collect();
            if !types.iter().any(|x| x == "ReportBatchItemFailures") {
                out.push(format!(
                    "{id}: the SQS event needs FunctionResponseTypes: [ReportBatchItemFailures]"
                ));
            }
            let batch = number(props.get("BatchSize"));
            let window = number(props.get("MaximumBatchingWindowInSeconds")).unwrap_or(0);
            match batch {
                None => out.push(format!("{id}: the SQS event should set BatchSize explicitly")),
                Some(b) if b > 10 && window == 0 => out.push(format!(
                    "{id}: BatchSize {b} > 10 needs MaximumBatchingWindowInSeconds >= 1"
                )),
                _ => {}
            }
            let max = props.get("ScalingConfig").and_then(|s| s.get("MaximumConcurrency"));
            if delivery_queue(t, id).as_deref() == Some(queue.as_str()) {
                match max.and_then(ref_target) {
                    Some(p) if t.has_parameter(&p) => {}
                    _ => out.push(format!(
                        "{id}: ScalingConfig.MaximumConcurrency should be !Ref a parameter (SenderMaxConcurrency)"
                    )),
                }
            } else if max.and_then(|m| number(Some(m))).is_none()
                && !max.and_then(ref_target).is_some_and(|p| t.has_parameter(&p))
            {
                out.push(format!(
                    "{id}: the SQS event on {queue} should set ScalingConfig.MaximumConcurrency"
                ));
            }
        }
    }
    if sources == 0 {
        out.push("no function has an SQS event source".to_owned());
    }
    out
}

/// The role Scheduler assumes may only put messages on the delivery queue.
pub fn check_scheduler_role(inputs: &Inputs) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for f in inputs.functions {
        let env = t.function_env(&f.logical_id);
        let (Some(role), Some(queue)) = (
            env.get(ENV_SCHEDULER_ROLE_ARN).and_then(|v| get_att_target(v, "Arn")),
            env.get(ENV_QUEUE_ARN).and_then(|v| get_att_target(v, "Arn")),
        ) else {
            continue;
        };
        if !seen.insert(role.clone()) {
            continue;
        }
        let principals: Vec<String> = t
            .properties(&role)
            .and_then(|p| p.get("AssumeRolePolicyDocument"))
            .and_then(|d| d.get("Statement"))
            .map(one_or_many)
            .unwrap_or_default()
            .into_iter()
            .flat_map(|s| {
                s.get("Principal")
                    .and_then(|p| p.get("Service"))
                    .map(one_or_many)
                    .unwrap_or_default()
            })
            .filter_map(scalar)
            .collect();
        if principals != ["scheduler.amazonaws.com"] {
            out.push(format!(
                "{role}: should be assumable by scheduler.amazonaws.com only, is {principals:?}"
            ));
        }
        let (statements, bad) = role_statements(t, &role);
        out.extend(bad);
        // The target, and the target's dead-letter queue, which Scheduler sends to
        // with the same role.
        let schedule_dlq = env.get(ENV_SCHEDULE_DLQ_ARN).and_then(|v| get_att_target(v, "Arn"));
        if schedule_dlq.is_none() {
            out.push(format!(
                "{}: {ENV_SCHEDULE_DLQ_ARN} should be !GetAtt <queue>.Arn: every schedule needs a dead-letter queue",
                f.logical_id
            ));
        }
        let allowed = [Some(queue.clone()), schedule_dlq.clone()];
        for s in &statements {
            if s.actions != ["sqs:SendMessage"] {
                out.push(format!(
                    "{}: the Scheduler role may only sqs:SendMessage, allows {:?}",
                    s.label, s.actions
                ));
            }
            if !s
                .resources
                .iter()
                .all(|r| get_att_target(r, "Arn").is_some_and(|a| allowed.contains(&Some(a))))
            {
                out.push(format!(
                    "{}: the Scheduler role may only send to !GetAtt {queue}.Arn and its dead-letter queue",
                    s.label
                ));
            }
        }
        if let Some(dlq) = &schedule_dlq {
            let grants = statements
                .iter()
                .flat_map(|s| s.resources.iter())
                .any(|r| get_att_target(r, "Arn").as_deref() == Some(dlq.as_str()));
            if !grants {
                out.push(format!(
                    "{role}: Scheduler sends what it cannot deliver to {dlq} with this role; allow sqs:SendMessage there"
                ));
            }
            let drained = inputs
                .functions
                .iter()
                .any(|g| event_queues(t, &g.logical_id).iter().any(|(q, _)| q == dlq));
            if !drained {
                out.push(format!(
                    "{dlq}: the Scheduler dead-letter queue should be an SQS event source of the sender (it plans each message again)"
                ));
            }
        }
        if statements.is_empty() {
            out.push(format!(
                "{role}: allows nothing; Scheduler needs sqs:SendMessage on {queue}"
            ));
        }
    }
    out
}

/// DLQ depth above 0, and the delivery queue's oldest message age.
pub fn check_alarms(inputs: &Inputs) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    let Some(queue) = inputs
        .functions
        .iter()
        .find_map(|f| event_queue(t, &f.logical_id))
        .map(|(q, _)| q)
    else {
        return out;
    };
    let alarms: Vec<&Value> = t
        .of_type("AWS::CloudWatch::Alarm")
        .iter()
        .filter_map(|id| t.properties(id))
        .collect();
    let on = |metric: &str, q: &str| -> Vec<&Value> {
        alarms
            .iter()
            .copied()
            .filter(|a| str_at(a.get("Namespace")) == Some("AWS/SQS") && str_at(a.get("MetricName")) == Some(metric))
            .filter(|a| {
                a.get("Dimensions")
                    .map(one_or_many)
                    .unwrap_or_default()
                    .into_iter()
                    .any(|d| {
                        str_at(d.get("Name")) == Some("QueueName")
                            && d.get("Value").and_then(|v| get_att_target(v, "QueueName")).as_deref() == Some(q)
                    })
            })
            .collect()
    };
    // Every dead-letter queue (a redrive target, or the Scheduler's): a queue the
    // sender drains keeps a depth near 0, so it needs an alarm on messages received;
    // one nothing drains, an alarm on its depth.
    let drained: BTreeSet<String> = inputs
        .functions
        .iter()
        .flat_map(|f| event_queues(t, &f.logical_id))
        .map(|(q, _)| q)
        .collect();
    let mut dead_letter_queues: BTreeSet<String> = t
        .of_type("AWS::SQS::Queue")
        .iter()
        .filter_map(|q| redrive_target(t, q))
        .collect();
    dead_letter_queues.extend(inputs.functions.iter().filter_map(|f| {
        t.function_env(&f.logical_id)
            .get(ENV_SCHEDULE_DLQ_ARN)
            .and_then(|v| get_att_target(v, "Arn"))
    }));
    for dlq in &dead_letter_queues {
        let (metric, op) = if drained.contains(dlq) {
            ("NumberOfMessagesReceived", "GreaterThanThreshold")
        } else {
            ("ApproximateNumberOfMessagesVisible", "GreaterThanThreshold")
        };
        let fires_on_one = on(metric, dlq)
            .iter()
            .any(|a| str_at(a.get("ComparisonOperator")) == Some(op) && number(a.get("Threshold")) == Some(0));
        if !fires_on_one {
            let why = if drained.contains(dlq) {
                " (the sender drains it, so its depth stays near 0)"
            } else {
                ""
            };
            out.push(format!("{dlq}: needs an alarm on {metric} > 0{why}"));
        }
        if drained.contains(dlq) && redrive_target(t, dlq).is_none() {
            out.push(format!(
                "{dlq}: the sender drains it, so it needs a RedrivePolicy for what the sender cannot handle"
            ));
        }
    }
    if on("ApproximateAgeOfOldestMessage", &queue).is_empty() {
        out.push(format!("{queue}: needs an alarm on ApproximateAgeOfOldestMessage"));
    }
    // Every function's failed and throttled invocations.
    for f in inputs.functions {
        for metric in ["Errors", "Throttles"] {
            let covered = alarms.iter().any(|a| {
                str_at(a.get("Namespace")) == Some("AWS/Lambda")
                    && str_at(a.get("MetricName")) == Some(metric)
                    && a.get("Dimensions")
                        .map(one_or_many)
                        .unwrap_or_default()
                        .into_iter()
                        .any(|d| {
                            str_at(d.get("Name")) == Some("FunctionName")
                                && d.get("Value").and_then(ref_target).as_deref() == Some(f.logical_id.as_str())
                        })
            });
            if !covered {
                out.push(format!("{}: needs an alarm on its AWS/Lambda {metric}", f.logical_id));
            }
        }
    }
    // Every alarm tells the stack's alarm topic, when one is given.
    for id in t.of_type("AWS::CloudWatch::Alarm") {
        let actions = t.properties(&id).and_then(|p| p.get("AlarmActions"));
        let names_topic = actions.is_some_and(|a| format!("{a:?}").contains("AlarmTopicArn"));
        if !names_topic {
            out.push(format!(
                "{id}: AlarmActions should notify the AlarmTopicArn parameter's topic"
            ));
        }
    }
    out
}

/// On-demand billing, point-in-time recovery, a retained table.
pub fn check_table_settings(t: &Template) -> Vec<String> {
    let mut out = Vec::new();
    for id in t.of_type("AWS::DynamoDB::Table") {
        let p = t.properties(&id);
        if str_at(p.and_then(|p| p.get("BillingMode"))) != Some("PAY_PER_REQUEST") {
            out.push(format!("{id}: BillingMode should be PAY_PER_REQUEST"));
        }
        let pitr = p
            .and_then(|p| p.get("PointInTimeRecoverySpecification"))
            .and_then(|s| s.get("PointInTimeRecoveryEnabled"))
            .and_then(scalar);
        if pitr.as_deref() != Some("true") {
            out.push(format!("{id}: point-in-time recovery should be enabled"));
        }
        // Deletion protection: on, or on by a parameter whose default is "true".
        let protection = p.and_then(|p| p.get("DeletionProtectionEnabled"));
        let on = match protection {
            Some(v) if scalar(v).as_deref() == Some("true") => true,
            Some(v) => condition_defaults_true(t, v),
            None => false,
        };
        if !on {
            out.push(format!(
                "{id}: DeletionProtectionEnabled should be on (or !If on a parameter that defaults to \"true\")"
            ));
        }
    }
    out
}

/// Whether `v` is `!If [Cond, true, false]` with `Cond` an `!Equals [!Ref P, "true"]`
/// whose parameter `P` defaults to "true".
fn condition_defaults_true(t: &Template, v: &Value) -> bool {
    let args = match v {
        Value::Tagged(tag) if tag.tag.to_string().trim_start_matches('!') == "If" => &tag.value,
        Value::Mapping(m) if m.len() == 1 => match m.get("Fn::If") {
            Some(a) => a,
            None => return false,
        },
        _ => return false,
    };
    let Some(seq) = args.as_sequence().filter(|s| s.len() == 3) else {
        return false;
    };
    if scalar(&seq[1]).as_deref() != Some("true") {
        return false;
    }
    let Some(cond) = seq[0].as_str().and_then(|c| t.root().get("Conditions")?.get(c)) else {
        return false;
    };
    let eq = match cond {
        Value::Tagged(tag) if tag.tag.to_string().trim_start_matches('!') == "Equals" => &tag.value,
        Value::Mapping(m) if m.len() == 1 => match m.get("Fn::Equals") {
            Some(a) => a,
            None => return false,
        },
        _ => return false,
    };
    let Some(pair) = eq.as_sequence().filter(|s| s.len() == 2) else {
        return false;
    };
    let param = ref_target(&pair[0]);
    scalar(&pair[1]).as_deref() == Some("true")
        && param.is_some_and(|p| {
            t.root()
                .get("Parameters")
                .and_then(|ps| ps.get(p.as_str()))
                .and_then(|p| p.get("Default"))
                .and_then(scalar)
                .as_deref()
                == Some("true")
        })
}

/// A number or a `!Ref` to a numeric parameter (its default).
fn number_or_default(t: &Template, v: Option<&Value>) -> Option<u64> {
    let v = v?;
    number(Some(v)).or_else(|| {
        let p = ref_target(v)?;
        number(t.root().get("Parameters")?.get(p.as_str())?.get("Default"))
    })
}

/// The values a numeric parameter may take: its `AllowedValues`, else its default.
fn parameter_values(t: &Template, name: &str) -> Vec<u64> {
    let Some(p) = t.root().get("Parameters").and_then(|ps| ps.get(name)) else {
        return Vec::new();
    };
    match p.get("AllowedValues").and_then(Value::as_sequence) {
        Some(values) => values.iter().filter_map(|v| number(Some(v))).collect(),
        None => number(p.get("Default")).into_iter().collect(),
    }
}

/// A number, a `!Ref` to a parameter (its value in `assigned`, else its default),
/// or `!FindInMap [Map, key, key]` whose keys are numbers or such references.
fn evaluate(t: &Template, v: &Value, assigned: &BTreeMap<String, u64>) -> Option<u64> {
    if let Some(n) = number(Some(v)) {
        return Some(n);
    }
    if let Some(p) = ref_target(v) {
        return assigned.get(&p).copied().or_else(|| number_or_default(t, Some(v)));
    }
    let Value::Tagged(tag) = v else { return None };
    if tag.tag.to_string().trim_start_matches('!') != "FindInMap" {
        return None;
    }
    let args = tag.value.as_sequence()?;
    let map = scalar(args.first()?)?;
    let key = |v: &Value| scalar(v).or_else(|| evaluate(t, v, assigned).map(|n| n.to_string()));
    let (k1, k2) = (key(args.get(1)?)?, key(args.get(2)?)?);
    number(
        t.root()
            .get("Mappings")?
            .get(map.as_str())?
            .get(k1.as_str())?
            .get(k2.as_str()),
    )
}

/// Reserved concurrency for every function with SQS event sources, at least the sum
/// of their maximum concurrency plus one for a scheduled task, for every value the
/// parameters they name may take.
pub fn check_concurrency(inputs: &Inputs) -> Vec<String> {
    let t = inputs.template;
    let mut out = Vec::new();
    for f in inputs.functions {
        let id = &f.logical_id;
        let queues = event_queues(t, id);
        if queues.is_empty() {
            continue;
        }
        let maxima: Vec<Option<&Value>> = queues
            .iter()
            .map(|(_, p)| p.get("ScalingConfig").and_then(|s| s.get("MaximumConcurrency")))
            .collect();
        let params: Vec<String> = maxima.iter().filter_map(|m| m.and_then(ref_target)).collect();
        // Every combination of the parameters' values (their ladders are short).
        let mut assignments: Vec<BTreeMap<String, u64>> = vec![BTreeMap::new()];
        for p in &params {
            let values = parameter_values(t, p);
            assignments = assignments
                .iter()
                .flat_map(|a| {
                    values.iter().map(move |v| {
                        let mut a = a.clone();
                        a.insert(p.clone(), *v);
                        a
                    })
                })
                .collect();
        }
        let reserved = t.properties(id).and_then(|p| p.get("ReservedConcurrentExecutions"));
        // `!If [Cond, value, !Ref AWS::NoValue]`: the value when reserving.
        let reserved = match reserved {
            Some(Value::Tagged(tag)) if tag.tag.to_string().trim_start_matches('!') == "If" => {
                tag.value.as_sequence().and_then(|s| s.get(1))
            }
            other => other,
        };
        for a in &assignments {
            let need: u64 = maxima
                .iter()
                .map(|m| m.and_then(|m| evaluate(t, m, a)).unwrap_or(1000))
                .sum::<u64>()
                + t.function_events(id, "ScheduleV2").len() as u64;
            let got = reserved.and_then(|r| evaluate(t, r, a));
            if got.is_none_or(|r| r < need) {
                let with: Vec<String> = a.iter().map(|(k, v)| format!("{k}={v}")).collect();
                out.push(format!(
                    "{id}: ReservedConcurrentExecutions {got:?} should be at least {need} with {} (its event \
                     sources' MaximumConcurrency and its schedules), so the API cannot starve it",
                    with.join(", ")
                ));
                break;
            }
        }
    }
    out
}

/// Every schedule (SAM `ScheduleV2` events, `AWS::Scheduler::Schedule` resources)
/// has an explicit retry policy and a dead-letter queue.
pub fn check_schedules(t: &Template) -> Vec<String> {
    let mut out = Vec::new();
    let mut schedules: Vec<(String, &Value)> = Vec::new();
    for id in t.of_type("AWS::Serverless::Function") {
        for (name, e) in t.function_events(&id, "ScheduleV2") {
            if let Some(p) = e.get("Properties") {
                schedules.push((format!("{id}.Events.{name}"), p));
            }
        }
    }
    for id in t.of_type("AWS::Scheduler::Schedule") {
        if let Some(target) = t.properties(&id).and_then(|p| p.get("Target")) {
            schedules.push((id.clone(), target));
        }
    }
    // The role a function's schedule assumes trusts that schedule's group only.
    for id in t.of_type("AWS::Serverless::Function") {
        for (name, e) in t.function_events(&id, "ScheduleV2") {
            let Some(role) = e
                .get("Properties")
                .and_then(|p| p.get("RoleArn"))
                .and_then(|r| get_att_target(r, "Arn"))
            else {
                continue;
            };
            let trust = t.properties(&role).and_then(|p| p.get("AssumeRolePolicyDocument"));
            if !trust.is_some_and(|d| format!("{d:?}").contains("aws:SourceArn")) {
                out.push(format!(
                    "{role}: assumed by {id}.Events.{name}; its trust should name the schedule's group as aws:SourceArn"
                ));
            }
        }
    }
    for (label, p) in schedules {
        if p.get("RetryPolicy").is_none() {
            out.push(format!("{label}: needs an explicit RetryPolicy"));
        }
        let dlq = p.get("DeadLetterConfig").and_then(|d| d.get("Arn"));
        if dlq.and_then(|a| get_att_target(a, "Arn")).is_none() {
            out.push(format!(
                "{label}: needs DeadLetterConfig.Arn: !GetAtt <queue>.Arn, or a dropped invocation is lost"
            ));
        }
    }
    out
}

/// The HTTP API throttles every route by parameters.
pub fn check_api_throttling(t: &Template) -> Vec<String> {
    let mut out = Vec::new();
    for id in t.of_type("AWS::Serverless::HttpApi") {
        let settings = t.properties(&id).and_then(|p| p.get("DefaultRouteSettings"));
        for key in ["ThrottlingRateLimit", "ThrottlingBurstLimit"] {
            let v = settings.and_then(|s| s.get(key));
            if !v.and_then(ref_target).is_some_and(|p| t.has_parameter(&p)) {
                out.push(format!("{id}: DefaultRouteSettings.{key} should be !Ref a parameter"));
            }
        }
    }
    out
}

/// The API function depends on the sender function, so a stack update replaces the
/// sender first and a rollback restores it last: the API queues a first message
/// before it writes the delivery, and an older sender would drop one that arrives
/// early instead of looking again.
pub fn check_update_order(t: &Template) -> Vec<String> {
    let depends = t.resource("ApiFunction").and_then(|r| r.get("DependsOn"));
    let names: Vec<String> = depends
        .map(one_or_many)
        .unwrap_or_default()
        .into_iter()
        .filter_map(scalar)
        .collect();
    if names.iter().any(|n| n == "SenderFunction") {
        Vec::new()
    } else {
        vec!["ApiFunction: DependsOn should name SenderFunction (the sender is updated first)".to_string()]
    }
}

/// The parameters a deployer sets, with safe defaults.
pub fn check_parameters(t: &Template) -> Vec<String> {
    let mut out = Vec::new();
    for (name, default) in [
        ("AllowHttpTargets", Some("false")),
        ("AllowPrivateTargets", Some("false")),
        ("SqsMaxDelaySeconds", Some("900")),
        ("SenderMaxConcurrency", None),
        ("LogRetentionDays", None),
        ("TableDeletionProtection", Some("true")),
        ("TrustedCaPem", Some("")),
    ] {
        let Some(p) = t.root().get("Parameters").and_then(|ps| ps.get(name)) else {
            out.push(format!("parameter {name} is missing"));
            continue;
        };
        let got = p.get("Default").and_then(scalar);
        if let Some(want) = default
            && got.as_deref() != Some(want)
        {
            out.push(format!("parameter {name}: Default {got:?}, expected {want:?}"));
        }
    }
    out
}

/// Key schema, attribute types, indexes, TTL and billing of a table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableShape {
    pub billing_mode: String,
    /// name -> S | N | B
    pub attributes: BTreeMap<String, String>,
    /// (name, HASH | RANGE), in order.
    pub key: Vec<(String, String)>,
    /// Global secondary indexes by name.
    pub indexes: BTreeMap<String, IndexShape>,
    /// Local secondary indexes by name.
    pub local_indexes: BTreeMap<String, IndexShape>,
    pub ttl_attribute: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexShape {
    pub key: Vec<(String, String)>,
    /// ALL | KEYS_ONLY | INCLUDE
    pub projection: String,
    pub non_key_attributes: BTreeSet<String>,
}

fn key_schema(v: Option<&Value>) -> Vec<(String, String)> {
    v.map(one_or_many)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|k| {
            Some((
                str_at(k.get("AttributeName"))?.to_owned(),
                str_at(k.get("KeyType"))?.to_owned(),
            ))
        })
        .collect()
}

fn indexes(v: Option<&Value>) -> BTreeMap<String, IndexShape> {
    v.map(one_or_many)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|i| {
            let p = i.get("Projection");
            Some((
                str_at(i.get("IndexName"))?.to_owned(),
                IndexShape {
                    key: key_schema(i.get("KeySchema")),
                    projection: str_at(p.and_then(|p| p.get("ProjectionType")))
                        .unwrap_or("ALL")
                        .to_owned(),
                    non_key_attributes: p
                        .and_then(|p| p.get("NonKeyAttributes"))
                        .map(one_or_many)
                        .unwrap_or_default()
                        .into_iter()
                        .filter_map(scalar)
                        .collect(),
                },
            ))
        })
        .collect()
}

impl TableShape {
    /// The shape of the table `id` in the template.
    pub fn from_template(t: &Template, id: &str) -> Option<TableShape> {
        let p = t.properties(id)?;
        let ttl = p.get("TimeToLiveSpecification");
        let ttl_on = ttl.and_then(|s| s.get("Enabled")).and_then(scalar).as_deref() == Some("true");
        Some(TableShape {
            billing_mode: str_at(p.get("BillingMode")).unwrap_or("PROVISIONED").to_owned(),
            attributes: p
                .get("AttributeDefinitions")
                .map(one_or_many)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|a| {
                    Some((
                        str_at(a.get("AttributeName"))?.to_owned(),
                        str_at(a.get("AttributeType"))?.to_owned(),
                    ))
                })
                .collect(),
            key: key_schema(p.get("KeySchema")),
            indexes: indexes(p.get("GlobalSecondaryIndexes")),
            local_indexes: indexes(p.get("LocalSecondaryIndexes")),
            ttl_attribute: ttl_on
                .then(|| str_at(ttl.and_then(|s| s.get("AttributeName"))).map(str::to_owned))
                .flatten(),
        })
    }

    /// What differs, described from the code's side (`expected`) to the template's.
    pub fn diff(expected: &TableShape, template: &TableShape) -> Vec<String> {
        let mut out = Vec::new();
        if expected.billing_mode != template.billing_mode {
            out.push(format!(
                "billing mode: code {}, template {}",
                expected.billing_mode, template.billing_mode
            ));
        }
        if expected.key != template.key {
            out.push(format!(
                "key schema: code {:?}, template {:?}",
                expected.key, template.key
            ));
        }
        if expected.attributes != template.attributes {
            out.push(format!(
                "attribute definitions: code {:?}, template {:?}",
                expected.attributes, template.attributes
            ));
        }
        for (kind, e, t) in [
            ("GSI", &expected.indexes, &template.indexes),
            ("LSI", &expected.local_indexes, &template.local_indexes),
        ] {
            for name in e.keys().chain(t.keys()).collect::<BTreeSet<_>>() {
                match (e.get(name), t.get(name)) {
                    (Some(a), Some(b)) if a != b => out.push(format!("{kind} {name}: code {a:?}, template {b:?}")),
                    (Some(_), None) => {
                        out.push(format!("{kind} {name}: created by the code, missing from the template"))
                    }
                    (None, Some(_)) => out.push(format!("{kind} {name}: in the template, not created by the code")),
                    _ => {}
                }
            }
        }
        if expected.ttl_attribute != template.ttl_attribute {
            out.push(format!(
                "TTL attribute: code {:?}, template {:?}",
                expected.ttl_attribute, template.ttl_attribute
            ));
        }
        out
    }
}

/// Reads every `.rs` file under `dir` (recursively), named relative to it.
pub fn read_sources(dir: &std::path::Path) -> std::io::Result<Vec<SourceFile>> {
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<SourceFile>) -> std::io::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let path = e.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if path.extension().is_some_and(|x| x == "rs") {
                let name = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push(SourceFile {
                    name,
                    text: std::fs::read_to_string(&path)?,
                });
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

/// Every SDK call a file makes, for messages: `file:line function -> actions`.
pub fn describe_calls(calls: &[SdkCall]) -> Vec<String> {
    calls
        .iter()
        .map(|c| {
            let exempt = EXEMPTIONS.iter().find(|e| e.covers(&c.file, &c.function));
            format!(
                "{}:{} {} {} -> {}{}",
                c.file,
                c.line,
                c.function,
                c.operation,
                c.actions.join(", "),
                if exempt.is_some() { " (exempt)" } else { "" }
            )
        })
        .collect()
}

/// Whether an operation name is in the table (for callers listing coverage).
pub fn known_operation(op: &str) -> bool {
    actions::action_for(op).is_some()
}

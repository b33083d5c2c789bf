//! The `StaticEgressIps` option, checked under both of its settings: with it, the
//! sender (and only the sender) runs in the private subnets behind the NAT
//! gateways, its role may make the network interfaces Lambda needs there, the VPC
//! endpoints for the services it calls (DynamoDB, SQS, Scheduler, KMS) exist, and
//! the Elastic IPs are outputs and reach the functions as `COURIER_EGRESS_IPS`;
//! without it, no function has a `VpcConfig` and none of those resources exist.

use crate::template::{Template, ref_target};
use serde_norway::Value;

/// The parameter and the condition it drives.
pub const PARAMETER: &str = "StaticEgressIps";
pub const CONDITION: &str = "HasStaticEgressIps";
/// The services the sender reaches through VPC endpoints, with the endpoint type.
pub const ENDPOINTS: &[(&str, &str)] = &[
    ("dynamodb", "Gateway"),
    ("sqs", "Interface"),
    ("scheduler", "Interface"),
    ("kms", "Interface"),
];
/// What Lambda does with a function's role to place it in a VPC.
pub const ENI_ACTIONS: &[&str] = &[
    "ec2:CreateNetworkInterface",
    "ec2:DescribeNetworkInterfaces",
    "ec2:DeleteNetworkInterface",
];

/// `Fn::If [condition, then, else]` in either spelling.
fn fn_if(v: &Value) -> Option<(&str, &Value, &Value)> {
    let args = match v {
        Value::Tagged(t) if t.tag.to_string().trim_start_matches('!') == "If" => &t.value,
        Value::Mapping(m) if m.len() == 1 => m.get("Fn::If")?,
        _ => return None,
    };
    match args.as_sequence()?.as_slice() {
        [c, a, b] => Some((c.as_str()?, a, b)),
        _ => None,
    }
}

/// `v` with every `Fn::If` on [`CONDITION`] decided as `on`, at its top level; `None`
/// for `AWS::NoValue`.
fn decided(v: &Value, on: bool) -> Option<&Value> {
    match fn_if(v) {
        Some((c, a, b)) if c == CONDITION => decided(if on { a } else { b }, on),
        _ if ref_target(v).as_deref() == Some("AWS::NoValue") => None,
        _ => Some(v),
    }
}

fn conditional(t: &Template, id: &str) -> bool {
    t.resource(id).and_then(|r| r.get("Condition")).and_then(Value::as_str) == Some(CONDITION)
}

/// The function that drains the delivery queue (it has SQS events).
fn senders(t: &Template) -> Vec<String> {
    t.of_type("AWS::Serverless::Function")
        .into_iter()
        .filter(|id| !t.function_events(id, "SQS").is_empty())
        .collect()
}

pub fn check_static_egress(t: &Template) -> Vec<String> {
    let mut out = Vec::new();
    let default = t
        .root()
        .get("Parameters")
        .and_then(|p| p.get(PARAMETER))
        .and_then(|p| p.get("Default"))
        .and_then(Value::as_str);
    if default != Some("false") {
        out.push(format!("parameter {PARAMETER} should exist with Default \"false\""));
    }
    if t.root().get("Conditions").and_then(|c| c.get(CONDITION)).is_none() {
        out.push(format!("condition {CONDITION} (on {PARAMETER}) is missing"));
    }
    let senders = senders(t);
    for on in [false, true] {
        let setting = format!("{PARAMETER}={on}");
        for id in t.of_type("AWS::Serverless::Function") {
            let vpc = t.function_property(&id, "VpcConfig").and_then(|v| decided(v, on));
            let sender = senders.contains(&id);
            match vpc {
                None if on && sender => out.push(format!("{id}: with {setting} it needs a VpcConfig")),
                None => {}
                Some(_) if !on || !sender => out.push(format!("{id}: with {setting} it must have no VpcConfig")),
                Some(v) => {
                    let subnets = v.get("SubnetIds").and_then(Value::as_sequence);
                    let groups = v.get("SecurityGroupIds").and_then(Value::as_sequence);
                    if subnets.map_or(0, Vec::len) < 2 || groups.is_none_or(Vec::is_empty) {
                        out.push(format!(
                            "{id}: with {setting} its VpcConfig should name two subnets and a security group"
                        ));
                    }
                    for r in subnets.into_iter().chain(groups).flatten().filter_map(ref_target) {
                        if !conditional(t, &r) {
                            out.push(format!(
                                "{r}: the sender's VpcConfig names it, so it needs Condition {CONDITION}"
                            ));
                        }
                    }
                }
            }
        }
    }
    // The endpoints the sender's calls go through inside the VPC.
    for (service, kind) in ENDPOINTS {
        let found = t.of_type("AWS::EC2::VPCEndpoint").into_iter().any(|id| {
            let p = t.properties(&id);
            let name = p
                .and_then(|p| p.get("ServiceName"))
                .map(|v| format!("{v:?}"))
                .unwrap_or_default();
            let ty = p.and_then(|p| p.get("VpcEndpointType")).and_then(Value::as_str);
            conditional(t, &id) && name.contains(&format!(".{service}\"")) && ty == Some(kind)
        });
        if !found {
            out.push(format!(
                "no {kind} VPC endpoint for {service} with Condition {CONDITION}: the sender could not reach it"
            ));
        }
    }
    // The addresses: two Elastic IPs, each an output under the condition.
    let ips: Vec<String> = t
        .of_type("AWS::EC2::EIP")
        .into_iter()
        .filter(|id| conditional(t, id))
        .collect();
    if ips.len() != 2 {
        out.push(format!(
            "expected two Elastic IPs with Condition {CONDITION}, found {}",
            ips.len()
        ));
    }
    let outputs = t.root().get("Outputs");
    for ip in &ips {
        let shown = outputs.and_then(Value::as_mapping).is_some_and(|m| {
            m.values().any(|o| {
                o.get("Condition").and_then(Value::as_str) == Some(CONDITION)
                    && o.get("Value").and_then(ref_target).as_deref() == Some(ip.as_str())
            })
        });
        if !shown {
            out.push(format!("{ip}: no stack output shows it (with Condition {CONDITION})"));
        }
    }
    // Lambda places the sender with its role.
    for id in &senders {
        let role = t
            .properties(id)
            .and_then(|p| p.get("Role"))
            .and_then(|r| crate::template::get_att_target(r, "Arn"));
        let statements: Vec<&Value> = role
            .as_deref()
            .and_then(|r| t.properties(r))
            .and_then(|p| p.get("Policies"))
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
            .filter_map(|p| p.get("PolicyDocument")?.get("Statement")?.as_sequence())
            .flatten()
            .collect();
        let granted = statements
            .iter()
            .filter_map(|s| match fn_if(s) {
                Some((c, a, _)) if c == CONDITION => Some(a),
                _ => None,
            })
            .any(|s| {
                let actions = format!("{:?}", s.get("Action"));
                ENI_ACTIONS.iter().all(|a| actions.contains(a))
            });
        if !granted {
            out.push(format!(
                "{id}: its role needs {} under Fn::If {CONDITION}",
                ENI_ACTIONS.join(", ")
            ));
        }
    }
    out
}

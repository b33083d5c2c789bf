//! A read-only view of a SAM/CloudFormation template: resources, SAM `Globals`
//! merged into functions, and the intrinsics the checks follow (`Ref`, `GetAtt`,
//! `Sub`) in both their short-tag (`!Ref X`) and long (`{"Ref": "X"}`) forms.

use serde_norway::Value;
use std::collections::BTreeMap;

#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("template is not valid YAML: {0}")]
    Yaml(#[from] serde_norway::Error),
    #[error("template has no Resources mapping")]
    NoResources,
}

/// An intrinsic function reference, as far as the checks need one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intrinsic {
    Ref(String),
    GetAtt { resource: String, attribute: String },
    Sub(String),
}

/// Reads `!Ref X`, `!GetAtt X.Y`, `!GetAtt [X, Y]`, `!Sub "..."` and the long forms.
pub fn intrinsic(v: &Value) -> Option<Intrinsic> {
    match v {
        Value::Tagged(t) => {
            let name = t.tag.to_string();
            let name = name.trim_start_matches('!');
            long_form(&format!("{}{name}", if name == "Ref" { "" } else { "Fn::" }), &t.value)
        }
        Value::Mapping(m) if m.len() == 1 => {
            let (k, inner) = m.iter().next()?;
            long_form(k.as_str()?, inner)
        }
        _ => None,
    }
}

fn long_form(name: &str, inner: &Value) -> Option<Intrinsic> {
    match name {
        "Ref" => Some(Intrinsic::Ref(inner.as_str()?.to_owned())),
        "Fn::GetAtt" => {
            let (resource, attribute) = match inner {
                Value::String(s) => {
                    let (r, a) = s.split_once('.')?;
                    (r.to_owned(), a.to_owned())
                }
                Value::Sequence(seq) if seq.len() == 2 => (seq[0].as_str()?.to_owned(), seq[1].as_str()?.to_owned()),
                _ => return None,
            };
            Some(Intrinsic::GetAtt { resource, attribute })
        }
        "Fn::Sub" => match inner {
            Value::String(s) => Some(Intrinsic::Sub(s.clone())),
            Value::Sequence(seq) => Some(Intrinsic::Sub(seq.first()?.as_str()?.to_owned())),
            _ => None,
        },
        _ => None,
    }
}

/// `Ref` target of a value, if it is one.
pub fn ref_target(v: &Value) -> Option<String> {
    match intrinsic(v)? {
        Intrinsic::Ref(r) => Some(r),
        _ => None,
    }
}

/// `GetAtt` resource of a value when the attribute is `attribute`.
pub fn get_att_target(v: &Value, attribute: &str) -> Option<String> {
    match intrinsic(v)? {
        Intrinsic::GetAtt { resource, attribute: a } if a == attribute => Some(resource),
        _ => None,
    }
}

/// A value that may be one string or a list of them (IAM `Action`, `Resource`).
pub fn one_or_many(v: &Value) -> Vec<&Value> {
    match v {
        Value::Sequence(seq) => seq.iter().collect(),
        other => vec![other],
    }
}

/// A scalar as text: strings, numbers and booleans (CloudFormation accepts all three
/// where a string is expected).
pub fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[derive(Debug, Clone)]
pub struct Template {
    root: Value,
}

impl Template {
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let root: Value = serde_norway::from_str(text)?;
        if !root.get("Resources").is_some_and(Value::is_mapping) {
            return Err(TemplateError::NoResources);
        }
        Ok(Template { root })
    }

    pub fn root(&self) -> &Value {
        &self.root
    }

    /// Logical id -> resource, in template order.
    pub fn resources(&self) -> Vec<(String, &Value)> {
        self.root
            .get("Resources")
            .and_then(Value::as_mapping)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v)))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn resource(&self, id: &str) -> Option<&Value> {
        self.root.get("Resources")?.get(id)
    }

    pub fn resource_type(&self, id: &str) -> Option<&str> {
        self.resource(id)?.get("Type")?.as_str()
    }

    pub fn properties(&self, id: &str) -> Option<&Value> {
        self.resource(id)?.get("Properties")
    }

    /// Logical ids of every resource of type `ty`.
    pub fn of_type(&self, ty: &str) -> Vec<String> {
        self.resources()
            .into_iter()
            .filter(|(_, r)| r.get("Type").and_then(Value::as_str) == Some(ty))
            .map(|(id, _)| id)
            .collect()
    }

    pub fn has_parameter(&self, name: &str) -> bool {
        self.root.get("Parameters").and_then(|p| p.get(name)).is_some()
    }

    /// A function property, falling back to `Globals.Function` as SAM does.
    pub fn function_property(&self, id: &str, name: &str) -> Option<&Value> {
        self.properties(id)
            .and_then(|p| p.get(name))
            .or_else(|| self.root.get("Globals")?.get("Function")?.get(name))
    }

    /// The function's environment: `Globals.Function.Environment.Variables` overlaid
    /// by its own (SAM merges the two maps).
    pub fn function_env(&self, id: &str) -> BTreeMap<String, Value> {
        let mut env = BTreeMap::new();
        let globals = self
            .root
            .get("Globals")
            .and_then(|g| g.get("Function"))
            .and_then(|f| f.get("Environment"))
            .and_then(|e| e.get("Variables"));
        let own = self
            .properties(id)
            .and_then(|p| p.get("Environment"))
            .and_then(|e| e.get("Variables"));
        for vars in [globals, own].into_iter().flatten() {
            if let Some(m) = vars.as_mapping() {
                for (k, v) in m {
                    if let Some(k) = k.as_str() {
                        env.insert(k.to_owned(), v.clone());
                    }
                }
            }
        }
        env
    }

    /// `(event name, event)` pairs of a function's `Events` of type `ty`.
    pub fn function_events(&self, id: &str, ty: &str) -> Vec<(String, &Value)> {
        self.properties(id)
            .and_then(|p| p.get("Events"))
            .and_then(Value::as_mapping)
            .map(|m| {
                m.iter()
                    .filter(|(_, e)| e.get("Type").and_then(Value::as_str) == Some(ty))
                    .filter_map(|(k, e)| Some((k.as_str()?.to_owned(), e)))
                    .collect()
            })
            .unwrap_or_default()
    }
}

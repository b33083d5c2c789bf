//! A `PATCH` body's field: left out (keep what is stored), `null` (clear it) or a
//! value (set it). The one reading of "absent versus null" for every resource;
//! a field of this type needs `#[serde(default)]` so that left out reads as
//! [`Patch::Keep`].

use serde::{Deserialize, Deserializer};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Patch<T> {
    /// Left out: the stored value stays.
    #[default]
    Keep,
    /// `null`: the stored value is removed.
    Clear,
    /// A value: it replaces the stored one.
    Set(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(d).map(|v| v.map_or(Patch::Clear, Patch::Set))
    }
}

impl<T> Patch<T> {
    /// A field a create body may leave out: given is set, left out is none.
    pub fn given_or_clear(value: Option<T>) -> Patch<T> {
        value.map_or(Patch::Clear, Patch::Set)
    }

    pub fn as_ref(&self) -> Patch<&T> {
        match self {
            Patch::Keep => Patch::Keep,
            Patch::Clear => Patch::Clear,
            Patch::Set(v) => Patch::Set(v),
        }
    }

    /// The same change with `f` applied to the value it sets.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Patch<U> {
        match self {
            Patch::Keep => Patch::Keep,
            Patch::Clear => Patch::Clear,
            Patch::Set(v) => Patch::Set(f(v)),
        }
    }

    /// True unless the field was left out.
    pub fn is_given(&self) -> bool {
        !matches!(self, Patch::Keep)
    }

    /// The value the field sets, when it sets one.
    pub fn value(&self) -> Option<&T> {
        match self {
            Patch::Set(v) => Some(v),
            _ => None,
        }
    }

    /// `None` when left out, else what the stored value becomes (`None`: removed).
    pub fn change(self) -> Option<Option<T>> {
        match self {
            Patch::Keep => None,
            Patch::Clear => Some(None),
            Patch::Set(v) => Some(Some(v)),
        }
    }

    /// Applies the change to a stored optional value.
    pub fn apply(self, current: &mut Option<T>) {
        if let Some(next) = self.change() {
            *current = next;
        }
    }
}

/// In the OpenAPI document a PATCH field is its value's schema, optional and
/// nullable: left out keeps, `null` clears.
#[cfg(feature = "openapi")]
impl<T: utoipa::ToSchema> utoipa::PartialSchema for Patch<T> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(T::schema())
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl<T: utoipa::ToSchema> utoipa::ToSchema for Patch<T> {
    fn name() -> std::borrow::Cow<'static, str> {
        T::name()
    }
}

#[cfg(test)]
mod tests {
    use super::Patch;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Body {
        #[serde(default)]
        n: Patch<u32>,
    }

    fn read(json: &str) -> Patch<u32> {
        serde_json::from_str::<Body>(json)
            .map(|b| b.n)
            .unwrap_or(Patch::Set(u32::MAX))
    }

    #[test]
    fn absent_null_and_a_value_are_three_answers() {
        assert_eq!(read("{}"), Patch::Keep);
        assert_eq!(read(r#"{"n": null}"#), Patch::Clear);
        assert_eq!(read(r#"{"n": 7}"#), Patch::Set(7));
        assert!(serde_json::from_str::<Body>(r#"{"n": "seven"}"#).is_err());
        let mut stored = Some(3);
        Patch::Keep.apply(&mut stored);
        assert_eq!(stored, Some(3));
        Patch::Set(4).apply(&mut stored);
        assert_eq!(stored, Some(4));
        Patch::Clear.apply(&mut stored);
        assert_eq!(stored, None);
    }
}

//! The JSON Schema of the game record (`docs/record.schema.json`), which
//! `arbiter games --schema` prints: what tools downstream (pandas, DuckDB,
//! a validator) need not guess, such as `round` being text. The file is the
//! one source; it is built into the binary, and tests hold it to the
//! record's serialized form and kinds.

/// The schema, as committed in `docs/`.
pub const RECORD_SCHEMA: &str = include_str!("../docs/record.schema.json");

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::record::{ErrorKind, Termination, WarningKind};

    fn schema() -> Value {
        serde_json::from_str(RECORD_SCHEMA).expect("the schema is JSON")
    }

    fn names(value: &Value) -> Vec<String> {
        let list = value.as_array().expect("a list");
        list.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()
    }

    /// The keys of a JSON object in the order written (a `Value` sorts
    /// them), its values ignored.
    struct Keys(Vec<String>);

    impl<'de> serde::Deserialize<'de> for Keys {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Keys, D::Error> {
            struct Visitor;
            impl<'de> serde::de::Visitor<'de> for Visitor {
                type Value = Keys;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<Keys, A::Error> {
                    let mut keys = Vec::new();
                    while let Some((key, _)) = map.next_entry::<String, serde::de::IgnoredAny>()? {
                        keys.push(key);
                    }
                    Ok(Keys(keys))
                }
            }
            deserializer.deserialize_map(Visitor)
        }
    }

    /// An object schema's properties, in order.
    #[derive(serde::Deserialize)]
    struct Properties {
        properties: Keys,
    }

    /// The record's properties and its error object's, in order.
    #[derive(serde::Deserialize)]
    struct Ordered {
        properties: Keys,
        #[serde(rename = "$defs")]
        defs: Defs,
    }

    #[derive(serde::Deserialize)]
    struct Defs {
        error: Properties,
    }

    /// The schema's properties are the record's fields, in the record's
    /// order, every one required; and so for the error object.
    #[test]
    fn properties_are_the_record_s_fields_in_order() {
        let schema = schema();
        let ordered: Ordered = serde_json::from_str(RECORD_SCHEMA).expect("the schema");
        let records = crate::testing::replay("[Event \"E\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Qe1 *\n");
        let record: Keys = serde_json::from_str(&serde_json::to_string(&records[0]).expect("ser"))
            .expect("the record");
        assert_eq!(ordered.properties.0, record.0);
        assert_eq!(names(&schema["required"]), record.0);
        let error: Keys =
            serde_json::from_str(&serde_json::to_string(&records[0].error).expect("ser"))
                .expect("the error");
        assert_eq!(ordered.defs.error.properties.0, error.0);
        assert_eq!(names(&schema["$defs"]["error"]["required"]), error.0);
        assert_eq!(schema["properties"]["round"]["type"], serde_json::json!(["string", "null"]));
    }

    /// Every kind and reason code is in the schema's enumerations, and
    /// nothing else.
    #[test]
    fn enumerations_are_the_kinds() {
        let schema = schema();
        let defs = &schema["$defs"];
        let all = |kinds: &[&str]| kinds.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let errors: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names(&defs["error"]["properties"]["kind"]["enum"]), all(&errors));
        let warnings: Vec<&str> = WarningKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names(&defs["warning"]["properties"]["kind"]["enum"]), all(&warnings));
        let ends: Vec<&str> = Termination::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names(&schema["properties"]["termination"]["enum"]), all(&ends));
        let reasons = names(&defs["error"]["properties"]["reason"]["enum"]);
        assert_eq!(reasons, all(crate::chess::why::CODES));
    }
}

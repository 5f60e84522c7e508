"""Validates a JSON document against docs/summary-schema.json: with the
jsonschema module when it is installed, else with a small validator for the
subset of JSON Schema the document uses (type, enum, minimum, maximum,
properties, required, additionalProperties, items)."""


def _type_ok(value, t):
    if isinstance(t, list):
        return any(_type_ok(value, x) for x in t)
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "null":
        return value is None
    if t == "boolean":
        return isinstance(value, bool)
    raise ValueError("schema type %r not supported" % t)


SUPPORTED = {"$schema", "$id", "title", "description", "type", "enum", "minimum", "maximum",
             "properties", "required", "additionalProperties", "items"}


def _validate(value, schema, path, errors):
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise ValueError("schema keywords not supported: %s" % sorted(unknown))
    if "type" in schema and not _type_ok(value, schema["type"]):
        errors.append("%s: %r is not of type %s" % (path, value, schema["type"]))
        return
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r not in %s" % (path, value, schema["enum"]))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %r < minimum %r" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %r > maximum %r" % (path, value, schema["maximum"]))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: missing %r" % (path, key))
        extra = schema.get("additionalProperties", True)
        for key, v in value.items():
            if key in props:
                _validate(v, props[key], path + "." + key, errors)
            elif extra is False:
                errors.append("%s: unexpected member %r" % (path, key))
            elif isinstance(extra, dict):
                _validate(v, extra, path + "." + key, errors)
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            _validate(v, schema["items"], "%s[%d]" % (path, i), errors)


def validate(doc, schema):
    """Returns a list of error strings (empty when valid)."""
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        errors = []
        _validate(doc, schema, "$", errors)
        return errors
    validator = jsonschema.Draft7Validator(schema)
    return ["%s: %s" % ("/".join(map(str, e.path)), e.message)
            for e in validator.iter_errors(doc)]

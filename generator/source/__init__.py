"""Reading hand-written files: bounded, located YAML and the formats each file must follow.

Everything that enters from a file passes here first: inputfiles.py bounds what is read,
yamlsrc.py builds plain values with the file, line and column of every key path,
formats/ describes each kind of file as a schema, inputcheck.py reads a file and
explains what breaks its schema (the loaders in load/ read through it and check nothing
of a file's shape themselves), schema_fast.py compiles schemas into yes/no checks, and
documents.py reads bundles (any YAML stream of objects) for validate, diff and expand.
"""

"""The commands beside the build: VM expansion (vmexpand/), diff, vendor init, schema import.

They use the steps (documents, model, schemas) but no step uses them.
"""

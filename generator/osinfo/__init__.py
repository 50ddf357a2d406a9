"""libosinfo's OS database: where it is, what it says (model.py, database.py), read as hostile input."""

"""Expansion: the model -> catalog objects (name, labels, annotations, spec), sorted.

instancetypes.py makes series x sizes x variants through the feature table
(generator/features.py); preferences.py and traits.py compose each preference from its
traits, basedOn chain and family; stamp.py adds the labels every object carries;
retain.py keeps objects an earlier release shipped.
"""

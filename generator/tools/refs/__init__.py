"""``citgen refs``: every reference to catalog objects in manifests, judged against what a cluster will have.

model.py holds the values that pass between the scan of manifests and the judge.
"""

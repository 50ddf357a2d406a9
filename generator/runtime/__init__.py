"""Speed machinery kept out of the steps: the forked validator and the collector pause.

Both only change how fast a build runs, never what it produces; the pipeline uses them
through a plain interface (background.beside, gcpause.paused_collector).
"""

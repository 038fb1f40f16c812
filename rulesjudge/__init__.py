"""rulesjudge: a rules reference and judge assistant for multiplayer Magic: The Gathering.

The project keeps its packages in the top-level folders of the design card (``corpus/``, ``indexer/``,
``scenarios/``, ``app/``); this package makes them one namespace, ``rulesjudge.corpus`` and so on, through
the symbolic links beside this file, so that an installed rulesjudge puts a single name into site-packages.
"""

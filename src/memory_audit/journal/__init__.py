"""The journal: every settled version of every memory file, kept where the user can get it back.

Blobs are content-addressed and compressed (:mod:`.blobs`); the index of
versions is SQLite (:mod:`.index`); :mod:`.recorder` turns changed paths into
versions with secrets masked; :mod:`.attribution` says who made a change;
:mod:`.retention` thins old versions within a size budget.
"""

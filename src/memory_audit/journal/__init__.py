"""The journal: every settled version of every memory file, kept where the user can get it back.

Blobs are content-addressed and compressed (:mod:`.blobs`: names checked to be
content hashes, inflation capped); the index of versions is SQLite
(:mod:`.index`); :mod:`.recorder` turns changed paths into versions with secrets
masked in the file's own encoding (:mod:`.content`); :mod:`.attribution` says who
made a change, with labels masked (:mod:`.labels`); :mod:`.retention` thins old
versions within a size budget.
"""

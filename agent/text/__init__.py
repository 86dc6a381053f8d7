"""Words out of text, shared by the catalog and the reader: tokens and phrase forms (`phrases`), stems and
stop words (`stems`), English word forms (`words`, cached on disk by `word_cache`)."""

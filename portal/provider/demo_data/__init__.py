"""Demo data of the embedded provider: the content (catalogue, people, places, texts) as plain
data, and the builders that turn it into rows for ``portal.provider.seed``."""

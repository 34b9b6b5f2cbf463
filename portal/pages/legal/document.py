"""The shape of a legal document: whole texts per language, kept out of the message catalogs
because a translator works on a contract as one document, not sentence by sentence."""

from typing import NamedTuple

# A block is a paragraph, or a tuple of items shown as a bulleted list.
Block = str | tuple[str, ...]


class Section(NamedTuple):
    heading: str
    blocks: tuple[Block, ...]


class Document(NamedTuple):
    note: str  # shown above the first section: the effective date or the last update
    sections: tuple[Section, ...]

    def filled(self, **values: str) -> "Document":
        """The document with ``{name}`` placeholders replaced, e.g. the company name."""

        def fill(block: Block) -> Block:
            if isinstance(block, str):
                return block.format(**values)
            return tuple(item.format(**values) for item in block)

        return Document(
            self.note.format(**values),
            tuple(
                Section(section.heading.format(**values), tuple(map(fill, section.blocks)))
                for section in self.sections
            ),
        )

    def text(self) -> str:
        """The whole document as plain text, for searching it."""
        lines = [self.note]
        for section in self.sections:
            lines.append(section.heading)
            for block in section.blocks:
                lines.extend((block,) if isinstance(block, str) else block)
        return "\n".join(lines)

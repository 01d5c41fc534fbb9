"""Reading exports from other assistants (Claude, ChatGPT) and our own, safely.

`archive` reads a ZIP, folder or file under hard limits; `detect` picks the parser; `claude`,
`chatgpt` and `own_export` (our own export) turn documents into `types.ParsedExport`. The import
service that writes memories lives in `memories.services.imports`.
"""

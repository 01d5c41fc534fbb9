"""The Germanic languages other than English the local extractor reads: German and Dutch."""

from __future__ import annotations

import re

from memories.extraction.languages.language import Language, opening, words

GERMAN = Language(
    "de",
    words(
        "ich",
        "wir",
        "mein",
        "meine",
        "meinen",
        "meinem",
        "meiner",
        "meines",
        "unser",
        "unsere",
        "unseren",
        "unserem",
        "unserer",
        "hab",
        "habe",
    ),
    words(
        "kannst du",
        r"(?:wie|was|wo|wann|warum|wieso|weshalb|welche[rsnm]?|wer|woher|wohin)\s+\w+\s+"
        r"(?:ich|du|man|wir|es|sie)",
        "können sie",
        "könntest du",
        "könnten sie",
        "bitte",
        "schreib",
        "schreibe",
        "erkläre",
        "erklär",
        "gib mir",
        "hilf mir",
        "mach",
        "übersetze",
        "empfiehl",
        "korrigiere",
        "korrigier",
        r"(?:der|die|das) (?:erste|zweite|dritte|letzte)",
    ),
    words(
        "heute",
        "jetzt gerade",
        r"jetzt bin ich (?:im|in der|am|auf dem|unterwegs)",
        "im moment",
        "gestern",
        "morgen",
        "heute abend",
        "diese woche",
        "schon wieder",
        "müde",
        "genervt",
        "hunger",
        "durst",
        "langweilig",
    ),
    words(
        r"(?:wenn|falls) (?:ich|wir) [^.?!]*(?:würden?|wären?|hätten?|könnten?)",
        "wäre ich",
        "stell dir vor",
        "angenommen",
        "meint",
        "sagt",
        "behauptet",
    ),
    words(
        r"spiel(?:e)? (?:einen|eine|den|die)",
        "du bist jetzt",
        "tu so, als",
        r"stell dir vor,? (?:du bist|dass du)",
    ),
    # A sentence opening on a verb in the first person without "ich": "Arbeite seit drei
    # Jahren als…", "Wohne in einem Dorf…", "Bin seit 2019 in Rente" (not a question, not
    # an instruction, not a noun or a word that opens a sentence as something else).
    pro_drop=re.compile(
        r"(?:^|[.!?:;\n]\s*)(?!(?:Bitte|Danke|Meine|Deine|Seine|Ihre|Eure|Unsere|Diese|"
        r"Jene|Jede|Keine|Eine|Alle|Beide|Heute|Gerade|Gerne|Leider|Frage|Hilfe|Idee|Ende|Grüße|"
        r"Liebe|Ganze|Schade|Gute|Große|Kleine|Neue|Alte|Sie|Die|Ohne|Seite|Woche|Schule|"
        r"Stelle|Sache|Firma|Aufgabe|Klasse|Gruppe|Sorge|Antwort|Erkläre|Erstelle|Schreibe|"
        r"Korrigiere|Übersetze|Fasse|Nenne|Beschreibe|Vergleiche|Analysiere|Formuliere|"
        r"Prüfe|Überprüfe|Liste|Finde|Gebe|Sage|Mache|Zeige|Berechne|Optimiere|Verbessere|"
        r"Ergänze|Empfehle|Verstehe|Glaube|Denke|Hoffe|Brauche|Suche|Möchte|Versuche|"
        r"Überlege|Frage|Wäre|Würde|Hätte|Könnte|Sollte|Müsste|Habe ich|Bin ich)\b)"
        r"(?:[A-ZÄÖÜ][a-zäöüß]{2,}e|Bin|Hab)\s+(?!(?:ich|du|er|sie|es|wir|ihr|man|mir|"
        r"mich|dir|dich|uns|euch|bitte)\b)\w",
        re.M,
    ),
    someone_else=opening(
        r"(?:mein|meine) (?:Nachbar(?:in)?|Kolleg(?:e|in)|Chef(?:in)?|Arbeitskolleg(?:e|in))"
    ),
)

DUTCH = Language(
    "nl",
    words(
        "ik ben",
        "ik heb",
        "ik woon",
        "ik werk",
        "ik heet",
        "mijn",
        "wij hebben",
        "we hebben",
    ),
    words(
        "kun je",
        "kunt u",
        "kan je",
        "alsjeblieft",
        "alstublieft",
        "schrijf",
        "leg uit",
        "help me",
        "geef me",
        "vertaal",
    ),
    words("vandaag", "op dit moment", "gisteren", "morgen", "vanavond"),
    words(r"als ik \w+ was", "stel je voor"),
    words(r"speel (?:een|de)", "doe alsof"),
)

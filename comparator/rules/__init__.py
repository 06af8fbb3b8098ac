"""The rules' own texts, for the historian: ``reading`` reads a published rules document
(``rulings_summary`` the Fifth Edition summary's own numbering) into a ``document``;
``store`` keeps the imported documents and finds a rule's words on a date or in an era;
``history`` follows one rule through every document; ``quoting`` gives `--quote` its
words; ``citations`` indexes which shipped scenarios each era's change changes. May import
store, compare, scenarios, games, files and text; not explore, dataset, site or cli."""

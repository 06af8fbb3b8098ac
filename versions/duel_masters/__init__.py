"""Duel Masters: its scenario format and the attack procedure its eras share."""

"""What the bot learns from the team: words (synonyms taken from answers to its questions) and
verified queries, per Slack workspace, reviewable (`python -m agent vocabulary|verified …`) and
removable; every change lands in the audit trail."""

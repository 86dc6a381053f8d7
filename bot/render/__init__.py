"""Pure rendering for Slack: Block Kit builders, Markdown to mrkdwn, tables, action ids."""

#!/usr/bin/env python3
"""A software company's customer-support helpdesk (2024-01 .. 2025-09) on PostgreSQL, schema `support`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_helpdesk if missing, drops and rebuilds schema "support", loads nine tables
generated deterministically with random.Random(11), and creates (or resets) the read-only login
role helpdesk_reader / helpdesk_reader. Idempotent: the same rows on every run.

Naming: quoted camelCase identifiers (support."ticketEvent"."agentId", support.ticket."openedAt");
tables are singular. Primary keys and foreign keys are declared (agent."managerId" -> agent is a
self-reference). Code columns say what their codes mean in COMMENT ON COLUMN; the first-response SLA
is written only in the ticket table's COMMENT.

  support.team                 5 support teams (queue) and where they sit
  support.agent                support reps: team, manager (another agent; NULL for the head of
                               support), hired / left dates. Two reps are both called "Jordan Lee"
                               (Billing and Technical Support).
  support.account              customer organisations: plan tier, region (a few NULL), seats.
                               "Bluewater Analytics" also exists as "Blue Water Analytics" (a second
                               workspace the same company opened in 2024-10).
  support.requester            people at those accounts who raise tickets
  support.ticket               one row per ticket: requester (the account is the requester's),
                               assignee, priority 1-4, channel E/C/P/W, status, openedAt,
                               firstResponseAt, escalatedAt, resolvedAt (NULL while unresolved)
  support."ticketEvent"        the conversation: requester messages, agents' public replies and
                               internal notes (isPublic = false)
  support."satisfactionRating" CSAT survey answers 1-5, for about 3 in 10 solved tickets
  support.tag, support."ticketTag"  tags, many-to-many

The extract is as of 2025-09-30 (end of day): tickets opened up to that day, their events up to then.
"""

import bisect
import datetime as dt
import itertools
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_helpdesk", "support", "helpdesk_reader"
URL = "postgresql://helpdesk_reader:helpdesk_reader@127.0.0.1:5432/dev_helpdesk"
SEED = 11
FIRST_DAY, LAST_DAY = dt.date(2024, 1, 1), dt.date(2025, 9, 30)
CUTOFF = dt.datetime(2025, 10, 1)     # the extract: nothing at or after this instant exists yet

DDL = [
    """CREATE TABLE support.team (
        "teamId" integer PRIMARY KEY,
        "teamName" varchar(40) NOT NULL,
        "location" varchar(40) NOT NULL)""",
    """CREATE TABLE support.agent (
        "agentId" integer PRIMARY KEY,
        "fullName" varchar(60) NOT NULL,
        "email" varchar(80) NOT NULL UNIQUE,
        "teamId" integer NOT NULL REFERENCES support.team ("teamId"),
        "managerId" integer REFERENCES support.agent ("agentId"),
        "jobTitle" varchar(40) NOT NULL,
        "hiredOn" date NOT NULL,
        "leftOn" date)""",
    """CREATE TABLE support.account (
        "accountId" integer PRIMARY KEY,
        "accountName" varchar(80) NOT NULL,
        "planTier" varchar(12) NOT NULL,
        "region" varchar(6),
        "seatCount" integer NOT NULL,
        "customerSince" date NOT NULL)""",
    """CREATE TABLE support.requester (
        "requesterId" integer PRIMARY KEY,
        "accountId" integer NOT NULL REFERENCES support.account ("accountId"),
        "fullName" varchar(60) NOT NULL,
        "email" varchar(120) NOT NULL,
        "createdOn" date NOT NULL)""",
    """CREATE TABLE support.ticket (
        "ticketId" integer PRIMARY KEY,
        "requesterId" integer NOT NULL REFERENCES support.requester ("requesterId"),
        "assigneeId" integer REFERENCES support.agent ("agentId"),
        "subject" varchar(120) NOT NULL,
        "priority" smallint NOT NULL CHECK ("priority" BETWEEN 1 AND 4),
        "channel" char(1) NOT NULL,
        "status" varchar(10) NOT NULL,
        "openedAt" timestamp NOT NULL,
        "firstResponseAt" timestamp,
        "escalatedAt" timestamp,
        "resolvedAt" timestamp)""",
    """CREATE TABLE support."ticketEvent" (
        "eventId" integer PRIMARY KEY,
        "ticketId" integer NOT NULL REFERENCES support.ticket ("ticketId"),
        "agentId" integer REFERENCES support.agent ("agentId"),
        "createdAt" timestamp NOT NULL,
        "isPublic" boolean NOT NULL,
        "bodyChars" integer NOT NULL)""",
    """CREATE TABLE support."satisfactionRating" (
        "ratingId" integer PRIMARY KEY,
        "ticketId" integer NOT NULL UNIQUE REFERENCES support.ticket ("ticketId"),
        "score" smallint NOT NULL CHECK ("score" BETWEEN 1 AND 5),
        "comment" text,
        "ratedAt" timestamp NOT NULL)""",
    """CREATE TABLE support.tag (
        "tagId" integer PRIMARY KEY,
        "tagName" varchar(40) NOT NULL UNIQUE)""",
    """CREATE TABLE support."ticketTag" (
        "ticketId" integer NOT NULL REFERENCES support.ticket ("ticketId"),
        "tagId" integer NOT NULL REFERENCES support.tag ("tagId"),
        PRIMARY KEY ("ticketId", "tagId"))""",
]
TABLE_COMMENTS = {
    "team": "Support teams (queues) and the office each sits in",
    "agent": "Support agents; each belongs to one team and reports to another agent",
    "account": "Customer organisations (companies that subscribe to the product)",
    "requester": "People at customer accounts who raise tickets",
    "ticket": "One row per support ticket. SLA policy: the first response is due within 1 hour for "
              "priority 1, 4 hours for priority 2, 8 hours for priority 3 and 24 hours for priority 4 "
              "(calendar hours from openedAt to firstResponseAt)",
    "ticketEvent": "Messages on a ticket: requester messages, agents' public replies and internal notes",
    "satisfactionRating": "Customer satisfaction survey answers; at most one per ticket, sent when it is solved",
    "tag": "Labels agents put on tickets",
    "ticketTag": "Which tags each ticket carries",
}
COLUMN_COMMENTS = {
    ("team", "location"): "office city",
    ("agent", "managerId"): "agentId of the agent this one reports to; NULL for the head of support",
    ("agent", "leftOn"): "last working day; NULL = still employed",
    ("account", "planTier"): "subscription plan: Free, Starter, Growth or Enterprise",
    ("account", "region"): "NA, EMEA, APAC or LATAM; NULL = not recorded",
    ("account", "seatCount"): "licensed user seats",
    ("ticket", "assigneeId"): "agent working the ticket; NULL = not assigned yet",
    ("ticket", "priority"): "1 = urgent, 2 = high, 3 = normal, 4 = low",
    ("ticket", "channel"): "E = email, C = chat, P = phone, W = web form",
    ("ticket", "status"): "new, open, pending (waiting on the requester), hold (waiting on a third party), "
                          "solved, closed (solved and locked 4 days later)",
    ("ticket", "firstResponseAt"): "first public reply by an agent; NULL if there is none (yet)",
    ("ticket", "escalatedAt"): "when the ticket was escalated to engineering; NULL = never escalated",
    ("ticket", "resolvedAt"): "when the ticket was solved; NULL while it is unresolved",
    ("ticketEvent", "agentId"): "author when an agent wrote it; NULL = written by the requester",
    ("ticketEvent", "isPublic"): "true = visible to the requester, false = internal note",
    ("ticketEvent", "bodyChars"): "length of the message in characters",
    ("satisfactionRating", "score"): "1 = very dissatisfied .. 5 = very satisfied",
}

TEAMS = [(1, "Tier 1 Support", "Austin"), (2, "Billing", "Dublin"), (3, "Technical Support", "Austin"),
         (4, "Onboarding", "Manila"), (5, "Enterprise Success", "Dublin")]
# agentId, name, team, title, hired, left, load, quality (CSAT offset)
AGENTS = [
    (1, "Dana Whitaker", 5, "Head of Support", "2017-04-03", None, 0.05, 0.2),
    (2, "Marcus Bell", 1, "Team Lead", "2018-09-10", None, 0.4, 0.1),
    (3, "Fiona Gallagher", 2, "Team Lead", "2019-02-18", None, 0.4, 0.0),
    (4, "Hector Alvarez", 3, "Team Lead", "2018-01-15", None, 0.4, 0.1),
    (5, "Grace Villanueva", 4, "Team Lead", "2020-06-01", None, 0.5, 0.1),
    (6, "Oliver Strand", 5, "Team Lead", "2019-11-04", None, 0.4, 0.2),
    # Tier 1
    (7, "Priya Raman", 1, "Support Specialist", "2019-05-06", None, 2.6, 0.15),
    (8, "Tom Becker", 1, "Support Specialist", "2021-03-22", None, 1.2, 0.0),
    (9, "Aisha Bello", 1, "Support Specialist", "2020-08-17", None, 1.3, 0.1),
    (10, "Kevin Doyle", 1, "Support Specialist", "2022-01-10", "2024-10-31", 1.2, -0.1),
    (11, "Lucia Romano", 1, "Support Specialist", "2021-11-08", None, 1.1, 0.05),
    (12, "Sam Okoro", 1, "Support Specialist", "2023-02-13", None, 1.2, -0.85),
    (13, "Emily Tran", 1, "Support Specialist", "2022-06-27", None, 1.0, 0.1),
    (14, "Daniel Kim", 1, "Support Specialist", "2023-09-04", None, 1.1, 0.0),
    (15, "Nora Lindqvist", 1, "Support Specialist", "2021-07-19", None, 0.9, 0.2),
    (16, "Ravi Menon", 1, "Support Specialist", "2024-03-04", None, 1.0, 0.0),
    (17, "Chloe Martin", 1, "Support Specialist", "2025-02-03", None, 1.0, 0.05),
    (18, "Ben Adeyemi", 1, "Support Specialist", "2025-02-17", None, 1.0, -0.05),
    (19, "Hannah Weiss", 1, "Support Specialist", "2020-01-13", None, 1.0, 0.1),
    # Billing
    (20, "Jordan Lee", 2, "Billing Specialist", "2021-05-10", None, 1.3, 0.0),
    (21, "Siobhan Murphy", 2, "Billing Specialist", "2020-10-05", None, 1.2, 0.1),
    (22, "Pieter de Vries", 2, "Billing Specialist", "2022-04-19", "2025-04-15", 1.0, -0.1),
    (23, "Carla Mendes", 2, "Billing Specialist", "2023-01-09", None, 1.1, 0.0),
    (24, "Ahmed Farouk", 2, "Billing Specialist", "2024-05-13", None, 1.0, 0.05),
    (25, "Megan Walsh", 2, "Billing Specialist", "2025-04-07", None, 1.0, 0.0),
    # Technical
    (26, "Jordan Lee", 3, "Support Engineer", "2024-08-19", None, 1.1, 0.0),
    (27, "Elena Petrova", 3, "Senior Support Engineer", "2018-06-11", None, 1.4, 0.2),
    (28, "Yuki Tanaka", 3, "Support Engineer", "2020-09-28", None, 1.2, 0.1),
    (29, "Carlos Ortega", 3, "Support Engineer", "2021-02-01", "2024-06-30", 1.1, 0.0),
    (30, "Felix Braun", 3, "Support Engineer", "2022-10-17", None, 1.1, -0.05),
    (31, "Zara Hussain", 3, "Support Engineer", "2021-12-06", None, 1.2, 0.1),
    (32, "Liam O'Connor", 3, "Support Engineer", "2023-05-22", None, 1.0, 0.0),
    (33, "Mei Chen", 3, "Senior Support Engineer", "2019-03-18", None, 1.3, 0.15),
    (34, "Noah Fischer", 3, "Support Engineer", "2024-07-01", None, 1.0, 0.0),
    (35, "Ingrid Solberg", 3, "Support Engineer", "2022-03-14", None, 1.0, 0.05),
    # Onboarding
    (36, "Paolo Reyes", 4, "Onboarding Specialist", "2021-04-12", None, 1.2, 0.2),
    (37, "Joy Santos", 4, "Onboarding Specialist", "2022-08-08", None, 1.1, 0.15),
    (38, "Mark Dela Cruz", 4, "Onboarding Specialist", "2023-06-19", None, 1.0, 0.1),
    (39, "Bea Navarro", 4, "Onboarding Specialist", "2025-05-05", None, 1.0, 0.1),
    # Enterprise Success
    (40, "Rachel Stein", 5, "Customer Success Engineer", "2019-07-29", None, 1.3, 0.25),
    (41, "Victor Huang", 5, "Customer Success Engineer", "2020-11-16", None, 1.2, 0.2),
    (42, "Amara Okafor", 5, "Customer Success Engineer", "2021-09-13", None, 1.1, 0.15),
    (43, "Gabriel Moreau", 5, "Customer Success Engineer", "2023-03-06", None, 1.0, 0.1),
    (44, "Sofia Lindgren", 5, "Customer Success Engineer", "2024-01-08", None, 1.0, 0.1),
]
LEADS = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6}   # team -> its lead

# topic: (team, weight, priority weights 1..4, resolution median hours, escalation chance, tags, subjects)
TOPICS = {
    "howto": (1, 26, (1, 8, 62, 29), 5, 0.01, ["how-to"],
              ["How do I {x}?", "Question about {x}", "Where can I {x}", "Help with {x}"]),
    "login": (1, 14, (4, 30, 56, 10), 1.5, 0.01, ["login", "password-reset"],
              ["Can't log in", "Password reset not arriving", "Locked out of my account", "2FA code not working"]),
    "feature": (1, 7, (0, 3, 37, 60), 20, 0.0, ["feature-request"],
                ["Feature request: {x}", "Would be great if we could {x}", "Suggestion: {x}"]),
    "billing": (2, 14, (2, 18, 60, 20), 16, 0.01, ["billing", "invoice"],
                ["Invoice question", "Charged twice this month", "Update billing details", "VAT on invoice",
                 "Need a copy of invoice"]),
    "refund": (2, 4, (3, 30, 55, 12), 30, 0.02, ["billing", "refund"],
               ["Refund request", "Refund for unused seats", "Cancel and refund"]),
    "cancel": (2, 3, (1, 20, 60, 19), 26, 0.0, ["account-cancellation"],
               ["Cancel our subscription", "Downgrade plan", "How to cancel"]),
    "bug": (3, 13, (8, 35, 47, 10), 55, 0.22, ["bug"],
            ["Error when I {x}", "{x} is broken", "Bug: cannot {x}", "Unexpected error 500"]),
    "api": (3, 8, (6, 34, 50, 10), 38, 0.12, ["api", "integration"],
            ["API returns 429", "Webhook not firing", "Integration with Salesforce failing", "API token expired"]),
    "performance": (3, 4, (15, 45, 35, 5), 30, 0.25, ["performance"],
                    ["Dashboard very slow", "Reports take minutes to load", "Timeouts since this morning"]),
    "outage": (3, 2, (70, 25, 5, 0), 6, 0.45, ["outage"],
               ["Service down?", "Nothing loads - urgent", "Outage in EU region?"]),
    "onboarding": (4, 6, (1, 12, 65, 22), 40, 0.02, ["onboarding"],
                   ["Getting started", "Setting up our workspace", "Training session request", "Inviting our team"]),
    "import": (4, 4, (3, 25, 60, 12), 34, 0.08, ["data-import"],
               ["CSV import fails", "Migrating from our old tool", "Import stuck at 90%"]),
    "sso": (3, 3, (8, 40, 45, 7), 28, 0.1, ["sso", "security"],
            ["SAML SSO setup", "Okta login loop", "SSO certificate renewal"]),
    "export": (1, 3, (1, 10, 60, 29), 8, 0.03, ["export", "reporting"],
               ["Export to Excel", "Scheduled report not sent", "How to export all data"]),
}
THINGS = ["export a report", "add a user", "change my email", "share a dashboard", "set up alerts",
          "create a template", "merge records", "archive a project", "edit permissions", "use filters",
          "connect Slack", "schedule a report", "bulk edit", "upload attachments", "change the time zone"]
EXTRA_TAGS = ["mobile-app", "permissions", "notifications", "vip", "upgrade", "webhooks"]
SPAM_TAGS = ["spam", "duplicate"]

ADJ = ["Acme", "Apex", "Arbor", "Atlas", "Beacon", "Birch", "Bright", "Cedar", "Cobalt", "Copper", "Crescent",
       "Crown", "Delta", "Ember", "Evergreen", "Falcon", "Fern", "Granite", "Harbor", "Helix", "Horizon",
       "Iron", "Juniper", "Keystone", "Lakeside", "Lantern", "Linden", "Maple", "Meridian", "Mosaic",
       "Nimbus", "Oakridge", "Orbit", "Pinnacle", "Prairie", "Quartz", "Redwood", "Ridge", "Sable", "Sage",
       "Silver", "Slate", "Solstice", "Spruce", "Summit", "Sunrise", "Tandem", "Terra", "Trident", "Vantage",
       "Vertex", "Willow", "Zenith", "Aurora", "Bayside", "Canyon", "Driftwood", "Foxglove", "Highland", "Kite"]
NOUN = ["Analytics", "Logistics", "Health", "Foods", "Labs", "Media", "Partners", "Retail", "Systems",
        "Consulting", "Capital", "Studios", "Dental", "Legal", "Realty", "Robotics", "Energy", "Apparel",
        "Travel", "Software", "Education", "Insurance", "Manufacturing", "Design", "Pharma", "Marketing"]
SUFFIX = ["", "", "", "", " Inc", " Ltd", " Group", " Co", " GmbH", " LLC"]
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac",
         "Anna", "Lars", "Chiara", "Rahul", "Ines", "Kofi", "Yara", "Jonas", "Aiko", "Marta"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright", "Scott",
        "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz", "Singh",
        "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Rossi", "Dubois", "Schmidt", "Silva"]
GOOD = ["Quick and helpful, thanks!", "Great support as always", "Solved in minutes", "Very patient, thank you",
        "Clear explanation", "Thanks Priya!", "Excellent"]
BAD = ["Took far too long", "Had to explain the problem three times", "Still not fixed",
       "Nobody answered for days", "Answer did not help", "Bounced between teams"]
MEH = ["OK in the end", "Fine", "Slow but solved", "Workaround only"]


def parse(s):
    return None if s is None else dt.date.fromisoformat(s)


def day_range(a, b):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def next_business_open(t: dt.datetime) -> dt.datetime:
    """The next moment the (business-hours) queues are staffed: weekdays 08:00-18:00."""
    if t.weekday() < 5 and 8 <= t.hour < 18:
        return t
    d = t.date()
    if t.weekday() < 5 and t.hour < 8:
        return dt.datetime.combine(d, dt.time(8, 0))
    d += dt.timedelta(days=1)
    while d.weekday() >= 5:
        d += dt.timedelta(days=1)
    return dt.datetime.combine(d, dt.time(8, 0))


def build():
    r = random.Random(SEED)
    teams = list(TEAMS)
    agents, agent_info = [], {}
    for aid, name, team, title, hired, left, load, quality in AGENTS:
        manager = None if aid == 1 else (1 if aid in LEADS.values() else LEADS[team])
        local = name.lower().replace(" ", ".").replace("'", "")
        email = f"{local}{'2' if aid == 26 else ''}@helpflow.io"
        agents.append((aid, name, email, team, manager, title, parse(hired), parse(left)))
        agent_info[aid] = dict(team=team, hired=parse(hired), left=parse(left), load=load, q=quality,
                               speed={7: 0.5, 12: 1.5, 41: 0.6}.get(aid, round(r.uniform(0.7, 1.35), 2)))

    # ---- accounts -------------------------------------------------------------------------------
    names = [f"{a} {n}" for a in ADJ for n in NOUN]
    r.shuffle(names)
    accounts, acc_info = [], {}
    used = {"Granite Energy", "Helix Pharma", "Solstice Insurance", "Keystone Capital"}
    acc_id = 0
    special = {  # accountId -> fixed attributes
        "Northwind Freight": ("Enterprise", "NA", 2400, dt.date(2017, 6, 12), 14.0),
        "Bluewater Analytics": ("Growth", "EMEA", 140, dt.date(2021, 3, 8), 2.2),
        "Blue Water Analytics": ("Growth", "EMEA", 35, dt.date(2024, 10, 14), 1.6),
        "Keystone Capital Partners": ("Enterprise", "NA", 650, dt.date(2025, 9, 8), 0.0),  # no tickets yet
    }
    quiet = {"Granite Energy Group", "Helix Pharma", "Solstice Insurance Ltd"}
    plain = []
    for name in names:
        if len(plain) >= 430:
            break
        base = name
        if base in used or "Water" in base or "Northwind" in base:
            continue
        used.add(base)
        plain.append(base + r.choice(SUFFIX))
    plain[40:40] = ["Granite Energy Group", "Helix Pharma", "Solstice Insurance Ltd"]
    all_names = plain[:25] + ["Northwind Freight"] + plain[25:60] + ["Bluewater Analytics"] + plain[60:] \
        + ["Blue Water Analytics", "Keystone Capital Partners"]
    for name in all_names:
        acc_id += 1
        if name in special:
            tier, region, seats, since, w = special[name]
        else:
            tier = r.choices(["Free", "Starter", "Growth", "Enterprise"], weights=[34, 33, 22, 11])[0]
            if name in quiet:
                tier = "Enterprise"
            region = r.choices(["NA", "EMEA", "APAC", "LATAM", None], weights=[45, 30, 14, 8, 3])[0]
            seats = {"Free": r.randint(1, 5), "Starter": r.randint(3, 25), "Growth": r.randint(20, 200),
                     "Enterprise": r.randint(150, 1800)}[tier]
            if r.random() < 0.12:
                since = dt.date(2024, 1, 1) + dt.timedelta(days=r.randint(0, 620))
            else:
                since = dt.date(2016, 1, 1) + dt.timedelta(days=r.randint(0, 2900))
            w = {"Free": 0.25, "Starter": 0.6, "Growth": 1.2, "Enterprise": 2.6}[tier] * min(3.5, r.paretovariate(2.2))
            if r.random() < 0.08:
                w *= 0.03  # nearly silent customers
            if name in quiet:
                w = 2.5
        accounts.append((acc_id, name, tier, region, seats, since))
        acc_info[acc_id] = dict(name=name, tier=tier, since=since, w=w,
                                quiet_after=dt.date(2025, 5, 20) + dt.timedelta(days=r.randint(0, 8))
                                if name in quiet else None)

    # ---- requesters -----------------------------------------------------------------------------
    requesters, req_pool = [], []
    rid = 0
    for acc in accounts:
        aid, name, tier, _, seats, since = acc
        n = max(1, min(40, int(round(math.sqrt(seats) * r.uniform(0.6, 1.3)))))
        if name == "Northwind Freight":
            n = 45
        domain = name.lower().replace(" ", "").replace(",", "").replace(".", "")[:18] + ".com"
        for k in range(n):
            rid += 1
            first, last = r.choice(FIRST), r.choice(LAST)
            created = since + dt.timedelta(days=int(r.expovariate(1 / 200)) if k else 0)
            requesters.append((rid, aid, f"{first} {last}",
                               f"{first.lower()}.{last.lower().replace(chr(39), '')}@{domain}", created))
            req_pool.append(dict(id=rid, acc=aid, created=created, w=r.paretovariate(1.6)))
    acc_total = {}
    for p in req_pool:
        acc_total[p["acc"]] = acc_total.get(p["acc"], 0.0) + p["w"]
    for p in req_pool:  # an account's weight is shared among its people
        p["w"] = acc_info[p["acc"]]["w"] * p["w"] / acc_total[p["acc"]]
    req_pool.sort(key=lambda p: (p["created"], p["id"]))
    req_created = [p["created"] for p in req_pool]

    # ---- tags -----------------------------------------------------------------------------------
    tag_names = sorted({t for v in TOPICS.values() for t in v[5]} | set(EXTRA_TAGS) | set(SPAM_TAGS))
    tag_id = {t: i + 1 for i, t in enumerate(tag_names)}
    tags = [(i, t) for t, i in tag_id.items()]
    tags.sort()

    # ---- tickets --------------------------------------------------------------------------------
    tickets, events, ratings, ticket_tags = [], [], [], []
    tid = eid = rtid = 0
    topic_names = list(TOPICS)
    hour_w_weekday = [1, 1, 1, 1, 1, 2, 3, 6, 10, 12, 12, 11, 9, 10, 11, 11, 10, 8, 6, 4, 3, 2, 2, 1]
    hour_w_weekend = [2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 5, 5, 4, 4, 3, 3, 3, 2, 2]
    release = (dt.date(2025, 3, 11), dt.date(2025, 3, 30))

    for day in day_range(FIRST_DAY, LAST_DAY):
        wd = day.weekday()
        months = (day.year - 2024) * 12 + day.month - 1
        mean = 46.0 * (1 + 0.018 * months) * [1.2, 1.12, 1.08, 1.05, 0.95, 0.3, 0.25][wd]
        mean *= {1: 1.3, 2: 1.05, 7: 0.92, 8: 0.88, 11: 1.0, 12: 0.8}.get(day.month, 1.0)
        in_release = release[0] <= day <= release[1]
        if in_release:
            mean *= 1.45
        n = max(0, int(r.gauss(mean, math.sqrt(mean)) + 0.5))
        k = bisect.bisect_right(req_created, day)
        pool = [p for p in req_pool[:k]
                if not (acc_info[p["acc"]]["quiet_after"] and day > acc_info[p["acc"]]["quiet_after"])]
        weights = [p["w"] for p in pool]
        cum = list(itertools.accumulate(weights))
        picks = r.choices(pool, cum_weights=cum, k=n)
        hours = r.choices(range(24), weights=hour_w_weekday if wd < 5 else hour_w_weekend, k=n)
        for p, hour in zip(picks, hours):
            acc = acc_info[p["acc"]]
            opened = dt.datetime.combine(day, dt.time(hour)) + dt.timedelta(seconds=r.randint(0, 3599))
            tid += 1
            # topic
            tw = {t: v[1] for t, v in TOPICS.items()}
            if day.month == 1:
                tw["billing"] *= 2.2
                tw["refund"] *= 1.6
                tw["cancel"] *= 1.5
            if in_release:
                tw["bug"] *= 3.5
                tw["performance"] *= 3.0
            if (day - acc["since"]).days < 75:
                tw["onboarding"] *= 8
                tw["import"] *= 6
            if acc["tier"] == "Free":
                tw["sso"] = 0.2
                tw["refund"] *= 0.2
            topic = r.choices(topic_names, weights=[tw[t] for t in topic_names])[0]
            team0, _, pw, res_h, esc_p, ttags, subjects = TOPICS[topic]
            spam = r.random() < 0.022
            team = team0
            if acc["tier"] == "Enterprise" and topic not in ("onboarding", "import") and r.random() < 0.7:
                team = 5
            pw = list(pw)
            if acc["tier"] == "Enterprise":
                pw = [pw[0] * 2.2, pw[1] * 1.5, pw[2], pw[3] * 0.6]
            elif acc["tier"] == "Free":
                pw = [pw[0] * 0.4, pw[1] * 0.6, pw[2], pw[3] * 1.5]
            priority = r.choices([1, 2, 3, 4], weights=pw)[0]
            cw = {"Free": [55, 30, 0.5, 14.5], "Starter": [46, 26, 4, 24], "Growth": [42, 24, 10, 24],
                  "Enterprise": [38, 18, 22, 22]}[acc["tier"]]
            channel = r.choices("ECPW", weights=cw)[0]
            if topic == "outage" and channel == "W":
                channel = "P"
            if channel in "CP" and priority > 1 and not (wd < 5 and 8 <= hour < 18):
                channel = "W"  # out of hours the chat widget and the phone line take a message instead
            subject = r.choice(subjects).format(x=r.choice(THINGS))
            if spam:
                team, priority, subject = 1, 4, r.choice(["Re: your invoice", "Partnership opportunity",
                                                          "SEO services", "Fwd: Fwd: hello", subject])
            # assignee
            cands = [a for a, i in agent_info.items() if i["team"] == team and i["hired"] <= day
                     and (i["left"] is None or day + dt.timedelta(days=10) < i["left"])]
            assignee = r.choices(cands, weights=[agent_info[a]["load"] for a in cands])[0]
            # first response
            if spam:
                first = None
                resolved = opened + dt.timedelta(minutes=r.randint(3, 240))
                escalated = None
            else:
                median = {"C": 3, "P": 1.5, "W": 75, "E": 140}[channel]
                median *= {1: 0.35, 2: 0.6, 3: 1.0, 4: 1.7}[priority]
                median *= {1: 1.0, 2: 1.35, 3: 1.2, 4: 0.8, 5: 0.55}[team]
                median *= agent_info[assignee]["speed"]
                if day.month == 1 and team == 2:
                    median *= 1.8
                if in_release and team == 3:
                    median *= 2.2
                start = opened
                if priority > 1 and not (wd < 5 and 8 <= opened.hour < 18):
                    start = next_business_open(opened)
                first = start + dt.timedelta(minutes=max(0.3, r.lognormvariate(math.log(median), 0.85)))
                hours_ = res_h * {1: 0.45, 2: 0.8, 3: 1.0, 4: 1.3}[priority]
                escalated = None
                if r.random() < esc_p * (1.6 if acc["tier"] == "Enterprise" else 1.0) * (1.5 if priority == 1 else 1):
                    hours_ *= 3.2
                    escalated = True
                span = dt.timedelta(hours=r.lognormvariate(math.log(hours_), 0.85))
                resolved = first + max(span, dt.timedelta(minutes=4))
                if escalated:
                    escalated = first + (resolved - first) * r.uniform(0.08, 0.45)
                if r.random() < 0.005:        # stuck: waiting on a customer or a vendor for months
                    resolved = None
            # state as of the extract
            if first is not None and first >= CUTOFF:
                first = None
            if escalated is not None and escalated >= CUTOFF:
                escalated = None
            if resolved is not None and resolved >= CUTOFF:
                resolved = None
            if resolved is not None:
                status = "closed" if resolved < CUTOFF - dt.timedelta(days=4) else "solved"
            elif first is None:
                status = "new"
                if r.random() < 0.6:
                    assignee = None
            elif escalated is not None:
                status = "hold"
            else:
                status = r.choices(["open", "pending"], weights=[55, 45])[0]
            tickets.append((tid, p["id"], assignee, subject, priority, channel, status, opened, first,
                            escalated, resolved))
            # tags
            mine = [] if spam else list(ttags)
            if spam:
                mine = [r.choice(SPAM_TAGS)]
            elif len(mine) > 1 and r.random() < 0.35:
                mine = mine[:1]
            if not spam and r.random() < 0.18:
                mine.append(r.choice(EXTRA_TAGS))
            if not spam and acc["tier"] == "Enterprise" and r.random() < 0.3:
                mine.append("vip")
            for t in sorted(set(mine)):
                ticket_tags.append((tid, tag_id[t]))
            # conversation
            eid += 1
            events.append((eid, tid, None, opened, True, r.randint(80, 1500)))
            if first is not None:
                mates = [a for a in cands if a != assignee] or [assignee]
                eid += 1
                events.append((eid, tid, assignee, first, True, r.randint(120, 1800)))
                end = resolved or CUTOFF - dt.timedelta(minutes=1)
                n_more = min(6, int(r.expovariate(1 / (0.6 + min(4.0, (end - first).total_seconds() / 86400 / 2)))))
                t = first
                for _ in range(n_more):
                    t = t + (end - t) * r.uniform(0.1, 0.5)
                    eid += 1
                    events.append((eid, tid, None, t, True, r.randint(40, 900)))
                    t = t + (end - t) * r.uniform(0.05, 0.4)
                    eid += 1
                    events.append((eid, tid, assignee, t, True, r.randint(80, 1500)))
                for _ in range(r.choices([0, 1, 2], weights=[70, 23, 7])[0]):
                    eid += 1
                    author = assignee if r.random() < 0.7 else r.choice(mates)
                    events.append((eid, tid, author, first + (end - first) * r.random(), False, r.randint(30, 600)))
                if escalated is not None:
                    eid += 1
                    events.append((eid, tid, assignee, escalated, False, r.randint(200, 1200)))
                if resolved is not None:
                    eid += 1
                    events.append((eid, tid, assignee, resolved, True, r.randint(60, 600)))
            # satisfaction survey
            if resolved is None or spam:
                continue
            rated = resolved + dt.timedelta(minutes=int(r.expovariate(1 / 600)))
            if rated >= CUTOFF or r.random() > {"C": 0.4, "P": 0.2, "E": 0.28, "W": 0.3}[channel]:
                continue
            hours_taken = (resolved - opened).total_seconds() / 3600
            sla = {1: 1, 2: 4, 3: 8, 4: 24}[priority]
            mu = 4.45 + agent_info[assignee]["q"]
            mu -= 0.7 if hours_taken > 72 else (0.3 if hours_taken > 24 else 0)
            mu -= 0.6 if escalated else 0
            mu -= 0.4 if (first - opened).total_seconds() / 3600 > sla else 0
            mu -= 0.5 if topic in ("cancel", "refund") else 0
            mu -= 0.25 if team == 2 else 0
            score = min(5, max(1, int(round(r.gauss(mu, 0.75)))))
            comment = None
            if r.random() < 0.4:
                comment = r.choice(GOOD if score >= 4 else (MEH if score == 3 else BAD))
                if comment == "Thanks Priya!" and assignee != 7:
                    comment = "Thanks!"
            rtid += 1
            ratings.append((rtid, tid, score, comment, rated))
    def whole_seconds(rows):  # the helpdesk stores timestamps to the second
        return [tuple(v.replace(microsecond=0) if isinstance(v, dt.datetime) else v for v in row) for row in rows]

    tickets, events, ratings = whole_seconds(tickets), whole_seconds(events), whole_seconds(ratings)
    events.sort(key=lambda e: (e[1], e[3], e[0]))
    events = [(i + 1,) + e[1:] for i, e in enumerate(events)]
    return {"team": teams, "agent": agents, "account": accounts, "requester": requesters, "tag": tags,
            "ticket": tickets, "ticketEvent": events, "satisfactionRating": ratings, "ticketTag": ticket_tags}


def main() -> None:
    _common.ensure_venv()
    import psycopg
    from psycopg import sql

    tables = build()
    _common.pg_create_database(DATABASE)
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}) as con:  # one transaction
        cur = con.cursor()
        cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        cur.execute(f"CREATE SCHEMA {SCHEMA}")
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Customer support helpdesk: tickets, replies, CSAT, "
                    f"2024-01-01 to 2025-09-30 (extract of 2025-09-30)'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL("COMMENT ON TABLE {}.{} IS {}").format(
                sql.Identifier(SCHEMA), sql.Identifier(table), sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL("COMMENT ON COLUMN {}.{}.{} IS {}").format(
                sql.Identifier(SCHEMA), sql.Identifier(table), sql.Identifier(column), sql.Literal(comment)))
        for table, rows in tables.items():  # dict order keeps every parent before its children
            with cur.copy(sql.SQL("COPY {}.{} FROM STDIN").format(sql.Identifier(SCHEMA), sql.Identifier(table))) as copy:
                for row in rows:
                    copy.write_row(row)
        cur.execute('CREATE INDEX ON support.ticket ("requesterId")')
        cur.execute('CREATE INDEX ON support.ticket ("assigneeId")')
        cur.execute('CREATE INDEX ON support.ticket ("openedAt")')
        cur.execute('CREATE INDEX ON support."ticketEvent" ("ticketId")')
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(sql.SQL("SELECT count(*) FROM {}.{}").format(sql.Identifier(SCHEMA), sql.Identifier(table)))
            counts[f'{SCHEMA}."{table}"' if table != table.lower() else f"{SCHEMA}.{table}"] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic support helpdesk into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""saas: a synthetic B2B software company's CRM/billing warehouse in a DuckDB file, schema `crm`.

    python3 load.py                 # writes /tmp/dev_saas.duckdb (what meta.json points at)
    python3 load.py PATH.duckdb     # or there

Generated deterministically with random.Random(11) (same rows every run, nothing downloaded), covering
2021-01-01 .. 2023-12-31. The file is written beside the target and moved into place, so re-running is
safe. snake_case names, declared primary and foreign keys:
  crm.employees        company staff (account managers, support agents, sales/CS leads)
  crm.plans            the price list: plan_name, monthly_price (flat per subscription, not per seat)
  crm.accounts         one row per customer company: industry, country, segment, account_manager_id
  crm.subscriptions    one row per account and plan period: start_date, end_date, status
                       ('active' = running, end_date NULL; 'canceled' = the account left;
                       'upgraded' / 'downgraded' = replaced by a new subscription the next day)
  crm.invoices         one monthly invoice per running subscription: amount, issued_date, due_date
                       (issued + 30 days), paid_date (NULL = not paid yet)
  crm.users            seats: one row per user login of an account: signup_date, last_login_at
  crm.support_tickets  priority, opened_at / closed_at (NULL = still open), satisfaction_score 1-5
DuckDB has no users/logins: the read-only reader is whoever opens the file read-only (the bot does).
"""

import datetime as dt
import os
import random
import sys
from pathlib import Path
import tempfile

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

SCHEMA = "crm"
DEFAULT_PATH = "/tmp/dev_saas.duckdb"
SEED = 11
START, END = dt.date(2021, 1, 1), dt.date(2023, 12, 31)

DDL = [
    f"""CREATE TABLE {SCHEMA}.employees (
        employee_id INTEGER PRIMARY KEY,
        first_name VARCHAR NOT NULL,
        last_name VARCHAR NOT NULL,
        email VARCHAR NOT NULL,
        job_title VARCHAR NOT NULL,
        hire_date DATE NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.plans (
        plan_id INTEGER PRIMARY KEY,
        plan_name VARCHAR NOT NULL,
        monthly_price DECIMAL(10, 2) NOT NULL,
        max_seats INTEGER)""",
    f"""CREATE TABLE {SCHEMA}.accounts (
        account_id INTEGER PRIMARY KEY,
        company_name VARCHAR NOT NULL,
        industry VARCHAR NOT NULL,
        country VARCHAR NOT NULL,
        segment VARCHAR NOT NULL,
        created_date DATE NOT NULL,
        account_manager_id INTEGER NOT NULL REFERENCES {SCHEMA}.employees (employee_id))""",
    f"""CREATE TABLE {SCHEMA}.subscriptions (
        subscription_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES {SCHEMA}.accounts (account_id),
        plan_id INTEGER NOT NULL REFERENCES {SCHEMA}.plans (plan_id),
        start_date DATE NOT NULL,
        end_date DATE,
        status VARCHAR NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.invoices (
        invoice_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES {SCHEMA}.accounts (account_id),
        subscription_id INTEGER NOT NULL REFERENCES {SCHEMA}.subscriptions (subscription_id),
        amount DECIMAL(10, 2) NOT NULL,
        issued_date DATE NOT NULL,
        due_date DATE NOT NULL,
        paid_date DATE)""",
    f"""CREATE TABLE {SCHEMA}.users (
        user_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES {SCHEMA}.accounts (account_id),
        email VARCHAR NOT NULL,
        role VARCHAR NOT NULL,
        signup_date DATE NOT NULL,
        last_login_at TIMESTAMP)""",
    f"""CREATE TABLE {SCHEMA}.support_tickets (
        ticket_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES {SCHEMA}.accounts (account_id),
        user_id INTEGER REFERENCES {SCHEMA}.users (user_id),
        assignee_id INTEGER REFERENCES {SCHEMA}.employees (employee_id),
        subject VARCHAR NOT NULL,
        priority VARCHAR NOT NULL,
        opened_at TIMESTAMP NOT NULL,
        closed_at TIMESTAMP,
        satisfaction_score SMALLINT)""",
]
COMMENTS = [
    f"COMMENT ON TABLE {SCHEMA}.accounts IS 'One row per customer company'",
    f"COMMENT ON TABLE {SCHEMA}.subscriptions IS 'One row per account and plan period; a plan change ends one row and starts another'",
    f"COMMENT ON COLUMN {SCHEMA}.subscriptions.status IS 'active, canceled, upgraded or downgraded'",
    f"COMMENT ON COLUMN {SCHEMA}.subscriptions.end_date IS 'last day of the subscription; NULL while active'",
    f"COMMENT ON TABLE {SCHEMA}.invoices IS 'One invoice per subscription per billing month'",
    f"COMMENT ON COLUMN {SCHEMA}.invoices.paid_date IS 'NULL = not paid yet'",
    f"COMMENT ON TABLE {SCHEMA}.users IS 'Seats: one row per user login belonging to an account'",
    f"COMMENT ON COLUMN {SCHEMA}.support_tickets.satisfaction_score IS '1 (very unhappy) to 5 (very happy); NULL = no survey answer'",
    f"COMMENT ON COLUMN {SCHEMA}.support_tickets.closed_at IS 'NULL = ticket still open'",
    f"COMMENT ON COLUMN {SCHEMA}.plans.monthly_price IS 'USD per month, flat per subscription'",
]

FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Mateo", "Sofia", "Lucas", "Mia", "Ethan", "Chloe", "Arjun",
         "Hannah", "Kenji", "Grace", "Omar", "Priya", "Jonas", "Lena", "Diego", "Zoe", "Samuel", "Nadia", "Felix"]
LAST = ["Carter", "Nguyen", "Schmidt", "Rossi", "Okafor", "Silva", "Patel", "Kowalski", "Dubois", "Tanaka",
        "Murphy", "Haddad", "Larsen", "Moreno", "Fischer", "Brooks", "Kim", "Jensen", "Ortiz", "Walsh"]
STAFF = ([("Account Manager", 8), ("Support Agent", 6), ("Sales Director", 1), ("Head of Customer Success", 1),
          ("Support Lead", 1), ("Billing Specialist", 1)])
PLANS = [(1, "Starter", 49, 5), (2, "Growth", 199, 25), (3, "Business", 499, 100), (4, "Enterprise", 1499, None)]
INDUSTRIES = ["Software", "Healthcare", "Retail", "Financial Services", "Manufacturing", "Education",
              "Media", "Logistics"]
IND_W = [18, 12, 14, 12, 11, 9, 8, 8]
COUNTRIES = ["United States", "United Kingdom", "Germany", "France", "Canada", "Australia", "Netherlands",
             "Brazil", "India", "Japan"]
CTRY_W = [34, 14, 10, 7, 8, 6, 5, 5, 6, 5]
SEGMENTS = ["SMB", "Mid-Market", "Enterprise"]
SEG_W = [55, 32, 13]
PLAN_W = {"SMB": [60, 32, 8, 0], "Mid-Market": [12, 45, 35, 8], "Enterprise": [0, 10, 40, 50]}
SEATS = {1: (1, 5), 2: (3, 22), 3: (8, 45), 4: (25, 90)}
PREFIX = ["Blue", "North", "Bright", "Iron", "Silver", "Quantum", "Green", "Summit", "Red", "Nova", "Atlas",
          "Cedar", "Harbor", "Pioneer", "Vertex", "Lumen", "Falcon", "Maple", "Orbit", "Granite", "Apex",
          "Coral", "Evergreen", "Horizon", "Keystone", "Meridian", "Nimbus", "Polar", "Sterling", "Tidal"]
SUFFIX = {"Software": ["Labs", "Systems", "Soft", "Digital"], "Healthcare": ["Health", "Clinics", "Care", "Medical"],
          "Retail": ["Goods", "Outfitters", "Market", "Stores"], "Financial Services": ["Capital", "Finance", "Partners", "Bank"],
          "Manufacturing": ["Industries", "Works", "Fabrication", "Manufacturing"],
          "Education": ["Academy", "Learning", "Schools", "University"], "Media": ["Media", "Studios", "Publishing", "Broadcasting"],
          "Logistics": ["Logistics", "Freight", "Shipping", "Transport"]}
LEGAL = {"United States": "Inc.", "Canada": "Inc.", "United Kingdom": "Ltd", "Australia": "Pty Ltd",
         "Germany": "GmbH", "France": "SAS", "Netherlands": "B.V.", "Brazil": "Ltda", "India": "Pvt Ltd", "Japan": "K.K."}
SUBJECTS = ["Billing question", "Bug report", "How-to question", "Feature request", "Login / access problem",
            "Integration issue", "Data export"]
PRIORITIES = ["low", "normal", "high", "urgent"]
PRIO_W = [30, 42, 20, 8]
RESOLVE_H = {"low": 70, "normal": 30, "high": 12, "urgent": 4}  # mean hours to close


def add_months(d: dt.date, n: int) -> dt.date:
    y, m = divmod(d.month - 1 + n, 12)
    y, m = d.year + y, m + 1
    last = [31, 29 if y % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    return dt.date(y, m, min(d.day, last))


def slug(name: str) -> str:
    return "".join(c for c in name.lower().split(" ")[0] + name.lower().split(" ")[1] if c.isalnum())


def build():
    r = random.Random(SEED)
    # ---- employees
    employees, ams, agents = [], [], []
    eid = 100
    used = set()
    for title, n in STAFF:
        for _ in range(n):
            eid += 1
            while True:
                fn, ln = r.choice(FIRST), r.choice(LAST)
                if (fn, ln) not in used:
                    used.add((fn, ln))
                    break
            hire = START - dt.timedelta(days=r.randint(30, 1500)) if eid < 115 else \
                START + dt.timedelta(days=r.randint(0, 500))
            employees.append((eid, fn, ln, f"{fn.lower()}.{ln.lower()}@cloudnest.io", title, hire))
            (ams if title == "Account Manager" else agents if title.startswith("Support") else []).append(eid)
    plans = [(pid, name, float(price), seats) for pid, name, price, seats in PLANS]
    price = {pid: p for pid, _, p, _ in PLANS}

    # ---- accounts
    accounts, names = [], set()
    am_w = [16, 14, 13, 12, 12, 11, 10, 7]
    for aid in range(1, 421):
        ind = r.choices(INDUSTRIES, IND_W)[0]
        ctry = r.choices(COUNTRIES, CTRY_W)[0]
        seg = r.choices(SEGMENTS, SEG_W)[0]
        while True:
            nm = f"{r.choice(PREFIX)} {r.choice(SUFFIX[ind])}"
            if nm not in names:
                names.add(nm)
                break
        created = START + dt.timedelta(days=int(r.triangular(0, (END - START).days - 20, 200)))
        accounts.append((aid, f"{nm} {LEGAL[ctry]}", ind, ctry, seg, created, r.choices(ams, am_w)[0]))

    # ---- subscriptions, invoices
    subs, invoices = [], []
    sid, iid = 1000, 50000
    life = {}  # account -> (first start, last end or None, last plan)
    for aid, _, _ind, _ctry, seg, created, _ in accounts:
        start = created + dt.timedelta(days=r.randint(0, 14))
        if start > END:
            start = END
        plan = r.choices([1, 2, 3, 4], PLAN_W[seg])[0]
        first = start
        churn_rate = {"SMB": 0.022, "Mid-Market": 0.012, "Enterprise": 0.006}[seg]
        while True:
            sid += 1
            month, status, end = 0, "active", None
            while True:
                issued = add_months(start, month)
                if issued > END:
                    break
                iid += 1
                amount = price[plan]
                if month == 0 and r.random() < 0.08:  # a first-month promotion now and then
                    amount = round(price[plan] * 0.8, 2)
                due = issued + dt.timedelta(days=30)
                u = r.random()
                if u < 0.80:
                    paid = issued + dt.timedelta(days=r.randint(0, 28))
                elif u < 0.96:
                    paid = issued + dt.timedelta(days=r.randint(31, 80))
                else:
                    paid = None
                if paid is not None and paid > END:
                    paid = None
                invoices.append((iid, aid, sid, amount, issued, due, paid))
                month += 1
                nxt = add_months(start, month)
                if nxt > END:
                    break
                x = r.random()
                if x < churn_rate:
                    status, end = "canceled", nxt - dt.timedelta(days=1)
                    break
                if x < churn_rate + 0.012 and month >= 3:
                    if plan < 4 and (plan == 1 or r.random() < 0.75):
                        status, end = "upgraded", nxt - dt.timedelta(days=1)
                        new_plan = plan + 1
                    elif plan > 1:
                        status, end = "downgraded", nxt - dt.timedelta(days=1)
                        new_plan = plan - 1
                    else:
                        continue
                    break
            subs.append((sid, aid, plan, start, end, status))
            if status in ("upgraded", "downgraded"):
                start, plan = end + dt.timedelta(days=1), new_plan
                continue
            break
        life[aid] = (first, end, plan)

    # ---- users (seats)
    users, uid = [], 5000
    for aid, name, *_ in accounts:
        first, end, plan = life[aid]
        lo, hi = SEATS[plan]
        n = r.randint(lo, hi)
        dom = slug(name) + ".com"
        last_day = end or END
        for k in range(n):
            uid += 1
            su = first + dt.timedelta(days=0 if k == 0 else int(r.triangular(0, max((last_day - first).days, 1), 0)))
            if r.random() < 0.06:
                last_login = None
            else:
                span = (last_day - su).days
                back = min(span, int(r.expovariate(1 / (12 if end is None else 40))))
                day = last_day - dt.timedelta(days=back)
                last_login = dt.datetime.combine(day, dt.time(r.randint(6, 21), r.randint(0, 59), r.randint(0, 59)))
            users.append((uid, aid, f"{r.choice(FIRST).lower()}.{k + 1}@{dom}", "admin" if k == 0 else
                          r.choices(["member", "admin", "viewer"], [75, 8, 17])[0], su, last_login))
    seats = {}
    for u in users:
        seats.setdefault(u[1], []).append(u)

    # ---- support tickets
    tickets, tid = [], 900000
    for aid, _, _, _, _seg, _, _ in accounts:
        first, end, plan = life[aid]
        if r.random() < 0.14:
            continue  # never opened a ticket
        last_day = end or END
        months = max(1, ((last_day - first).days) / 30.4)
        rate = {1: 0.35, 2: 0.55, 3: 0.8, 4: 1.1}[plan]
        n = max(1, int(r.gauss(months * rate, 2)))
        for _ in range(n):
            tid += 1
            day = first + dt.timedelta(days=r.randint(0, max((last_day - first).days, 0)))
            opened = dt.datetime.combine(day, dt.time(r.randint(7, 20), r.randint(0, 59), r.randint(0, 59)))
            prio = r.choices(PRIORITIES, PRIO_W)[0]
            hours = r.expovariate(1 / RESOLVE_H[prio]) + 0.25
            closed = opened + dt.timedelta(minutes=round(hours * 60))
            if closed > dt.datetime(2023, 12, 31, 23, 59, 59) or r.random() < 0.01:
                closed = None
            score = None
            if closed is not None and r.random() < 0.6:
                base = 4.6 - min(hours, 200) / 60 - (0.5 if prio == "urgent" and hours > 8 else 0)
                score = max(1, min(5, round(r.gauss(base, 0.9))))
            opener = r.choice(seats[aid])
            tickets.append((tid, aid, opener[0] if r.random() < 0.93 else None,
                            r.choice(agents) if closed is not None or r.random() < 0.7 else None,
                            r.choices(SUBJECTS, [18, 22, 25, 10, 12, 9, 4])[0], prio, opened, closed, score))
    tickets.sort(key=lambda t: t[6])
    tickets = [(900001 + i, *t[1:]) for i, t in enumerate(tickets)]
    return {"employees": employees, "plans": plans, "accounts": accounts, "subscriptions": subs,
            "invoices": invoices, "users": users, "support_tickets": tickets}


def main() -> None:
    _common.ensure_venv()
    import duckdb

    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PATH)
    tables = build()
    fd, tmp = tempfile.mkstemp(suffix=".duckdb", dir=os.path.dirname(path))
    os.close(fd)
    os.remove(tmp)  # DuckDB wants to create the file itself
    try:
        con = duckdb.connect(tmp)
        con.execute(f"CREATE SCHEMA {SCHEMA}")
        for ddl in DDL:
            con.execute(ddl)
        for comment in COMMENTS:
            con.execute(comment)
        for table, rows in tables.items():  # parents before children (dict order)
            marks = ", ".join("?" * len(rows[0]))
            con.executemany(f"INSERT INTO {SCHEMA}.{table} VALUES ({marks})", rows)
        counts = {f"{SCHEMA}.{t}": con.execute(f"SELECT count(*) FROM {SCHEMA}.{t}").fetchone()[0] for t in tables}
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded synthetic SaaS CRM (random.Random({SEED})) into DuckDB file {path}:")
    _common.print_counts(counts, f"duckdb:///{path}",
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no logins: the bot opens the file read-only)")


if __name__ == "__main__":
    main()

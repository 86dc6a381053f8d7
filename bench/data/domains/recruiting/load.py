#!/usr/bin/env python3
"""A synthetic applicant tracking system (ATS) of one company, 2023-01 .. 2025-06, in DuckDB, schema `ats`.

    python3 load.py                     # writes /tmp/dev_recruiting.duckdb
    python3 load.py PATH.duckdb         # or there

Generated deterministically with random.Random(SEED) (no R data set): identical rows on every run.
The file is built anew beside the target and then moved over it, so re-running is safe. DuckDB has
no users: the read-only reader is whoever opens the file read-only (the bot does).

Naming: lower snake_case, table names mixed singular/plural (department, job_reqs, users,
candidates, application, application_stage_history, interviews, offers); some columns repeat
their table's name (application.application_stage, department.department_name), others carry a
short prefix (candidates.cand_src, job_reqs.req_status, offers.offer_base_cents). Primary keys
declared; foreign keys NOT declared (implied by the *_id names). Every timestamp is TIMESTAMP
WITH TIME ZONE (events happen in New York business hours). Code columns explain their codes only
in COMMENT ON COLUMN.

  ats.department                one row per department (10)
  ats.users                     the company's own staff who use the ATS: recruiters, coordinators,
                                hiring managers, interviewers (NOT candidates)
  ats.job_reqs                  job requisitions ("reqs", "openings", "roles", "jobs"): department,
                                title, recruiter, hiring manager, headcount, status code O/H/F/C,
                                salary band in cents, opened / closed (NULL = not closed yet)
  ats.candidates                one row per person; source code cand_src (REF/JB/AGY/CS/SRC/EVT);
                                cand_is_test = QA test records; cand_deleted_at = soft-deleted duplicates
  ats.application               one row per candidate and req: current stage code (10..60), status
                                code (A/R/W/H), applied / closed (NULL = still in process)
  ats.application_stage_history one row per stage an application entered (the pipeline moves)
  ats.interviews                one row per interviewer and interview session, with the scorecard
                                (rating 1-4, submitted at; NULL = not submitted yet)
  ats.offers                    offer letters: base salary in USD cents, status code P/A/D/R,
                                sent / responded (NULL = no answer yet), proposed start date
"""

import datetime as dt
import math
import os
import random
import sys
import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

SCHEMA = "ats"
DEFAULT_PATH = "/tmp/dev_recruiting.duckdb"
URL = "duckdb:////tmp/dev_recruiting.duckdb"
SEED = 20250630
NY = ZoneInfo("America/New_York")
UTC = dt.timezone.utc
START = dt.datetime(2023, 1, 3, 9, 0)            # first req opens (New York local time)
EXTRACT = dt.datetime(2025, 6, 30, 17, 0)        # "now" for the data: later events have not happened

DDL = [
    f"""CREATE TABLE {SCHEMA}.department (
        department_id INTEGER PRIMARY KEY,
        department_code VARCHAR(3) NOT NULL,
        department_name VARCHAR NOT NULL,
        department_cost_center VARCHAR NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.users (
        user_id INTEGER PRIMARY KEY,
        user_full_name VARCHAR NOT NULL,
        user_email VARCHAR NOT NULL,
        user_title VARCHAR NOT NULL,
        user_role VARCHAR(3) NOT NULL,
        department_id INTEGER NOT NULL,
        user_is_active BOOLEAN NOT NULL,
        user_created_at TIMESTAMPTZ NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}.job_reqs (
        req_id INTEGER PRIMARY KEY,
        req_code VARCHAR NOT NULL,
        req_title VARCHAR NOT NULL,
        department_id INTEGER NOT NULL,
        req_level VARCHAR(2) NOT NULL,
        req_location VARCHAR NOT NULL,
        req_headcount SMALLINT NOT NULL,
        recruiter_user_id INTEGER NOT NULL,
        hiring_manager_user_id INTEGER NOT NULL,
        req_salary_min_cents BIGINT NOT NULL,
        req_salary_max_cents BIGINT NOT NULL,
        req_status CHAR(1) NOT NULL,
        req_opened_at TIMESTAMPTZ NOT NULL,
        req_closed_at TIMESTAMPTZ)""",
    f"""CREATE TABLE {SCHEMA}.candidates (
        candidate_id INTEGER PRIMARY KEY,
        cand_first_name VARCHAR,
        cand_last_name VARCHAR,
        cand_email VARCHAR NOT NULL,
        cand_city VARCHAR,
        cand_src VARCHAR(3) NOT NULL,
        cand_src_detail VARCHAR,
        cand_referrer_user_id INTEGER,
        cand_created_at TIMESTAMPTZ NOT NULL,
        cand_is_test BOOLEAN NOT NULL,
        cand_deleted_at TIMESTAMPTZ)""",
    f"""CREATE TABLE {SCHEMA}.application (
        application_id INTEGER PRIMARY KEY,
        candidate_id INTEGER NOT NULL,
        req_id INTEGER NOT NULL,
        application_applied_at TIMESTAMPTZ NOT NULL,
        application_stage SMALLINT NOT NULL,
        application_status CHAR(1) NOT NULL,
        application_closed_at TIMESTAMPTZ)""",
    f"""CREATE TABLE {SCHEMA}.application_stage_history (
        stage_history_id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL,
        stage_from SMALLINT,
        stage_to SMALLINT NOT NULL,
        stage_changed_at TIMESTAMPTZ NOT NULL,
        changed_by_user_id INTEGER)""",
    f"""CREATE TABLE {SCHEMA}.interviews (
        interview_id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL,
        interviewer_user_id INTEGER NOT NULL,
        interview_kind VARCHAR(3) NOT NULL,
        interview_at TIMESTAMPTZ NOT NULL,
        interview_minutes SMALLINT NOT NULL,
        interview_status VARCHAR NOT NULL,
        scorecard_rating SMALLINT,
        scorecard_submitted_at TIMESTAMPTZ)""",
    f"""CREATE TABLE {SCHEMA}.offers (
        offer_id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL,
        offer_sent_at TIMESTAMPTZ NOT NULL,
        offer_base_cents BIGINT NOT NULL,
        offer_signon_cents BIGINT,
        offer_status CHAR(1) NOT NULL,
        offer_responded_at TIMESTAMPTZ,
        offer_start_date DATE)""",
]
TABLE_COMMENTS = {
    "department": "Company departments that open job requisitions",
    "users": "Employees with an ATS login: recruiters, coordinators, hiring managers and interviewers",
    "job_reqs": "Job requisitions (job openings); one row per req, a req can be for several hires (req_headcount)",
    "candidates": "People in the ATS, one row per person (a person can apply to several reqs)",
    "application": "One row per candidate per requisition applied to",
    "application_stage_history": "Every stage an application moved into, with when and by whom",
    "interviews": "Interview sessions, one row per interviewer, with that interviewer's scorecard",
    "offers": "Offer letters sent to candidates; a declined offer can be followed by a revised one",
}
COLUMN_COMMENTS = {
    ("users", "user_role"): "REC = recruiter, CRD = recruiting coordinator, HMG = hiring manager, INT = interviewer",
    ("users", "user_is_active"): "false = left the company",
    ("job_reqs", "req_status"): "O = open, H = on hold, F = filled, C = cancelled",
    ("job_reqs", "req_closed_at"): "when the req was filled or cancelled; NULL = not closed (open or on hold)",
    ("job_reqs", "req_headcount"): "number of hires the req is approved for",
    ("job_reqs", "req_level"): "IC levels L1-L6, management M1-M3",
    ("job_reqs", "req_salary_min_cents"): "bottom of the approved annual base salary band, USD cents",
    ("job_reqs", "req_salary_max_cents"): "top of the approved annual base salary band, USD cents",
    ("candidates", "cand_src"): "how the candidate came to us: REF = employee referral, JB = job board, "
                                "AGY = recruiting agency, CS = company careers site, SRC = sourced by a recruiter "
                                "(outbound), EVT = event / campus",
    ("candidates", "cand_src_detail"): "job board, agency or event name",
    ("candidates", "cand_referrer_user_id"): "employee who referred the candidate (REF only)",
    ("candidates", "cand_is_test"): "true = test record created by QA / recruiting ops; exclude from all reporting",
    ("candidates", "cand_deleted_at"): "set when the profile was deleted as a duplicate of another; deleted rows "
                                       "are kept but must be ignored",
    ("application", "application_stage"): "furthest pipeline stage reached: 10 = applied, 20 = recruiter screen, "
                                          "30 = hiring manager interview, 40 = onsite, 50 = offer, 60 = hired",
    ("application", "application_status"): "A = active (in process), R = rejected by us, W = withdrawn by the "
                                           "candidate (includes declining our offer), H = hired",
    ("application", "application_closed_at"): "when the application was rejected, withdrawn or hired; NULL = still active",
    ("application_stage_history", "stage_from"): "stage code before the move (see application.application_stage); "
                                                 "NULL for the first row (applied)",
    ("application_stage_history", "stage_to"): "stage code entered: 10 applied, 20 recruiter screen, "
                                               "30 hiring manager interview, 40 onsite, 50 offer, 60 hired",
    ("application_stage_history", "changed_by_user_id"): "user who moved the application; NULL = the system (new application)",
    ("interviews", "interview_kind"): "PS = phone screen (recruiter), HM = hiring manager interview, "
                                      "TEC = technical, PNL = panel / behavioural, CAS = case study or presentation",
    ("interviews", "interview_status"): "scheduled, completed, canceled, no_show",
    ("interviews", "scorecard_rating"): "interviewer's recommendation: 1 = strong no hire, 2 = no hire, "
                                        "3 = hire, 4 = strong hire; NULL until the scorecard is submitted",
    ("interviews", "scorecard_submitted_at"): "NULL = scorecard not submitted yet",
    ("offers", "offer_base_cents"): "annual base salary offered, USD cents",
    ("offers", "offer_signon_cents"): "one-time sign-on bonus, USD cents; NULL = none",
    ("offers", "offer_status"): "P = pending (no answer yet), A = accepted, D = declined by the candidate, "
                                "R = rescinded by us",
    ("offers", "offer_responded_at"): "when the candidate accepted or declined; NULL = no answer (pending or rescinded)",
}

# code, name, cost center, share of reqs, applicants per opening, offer acceptance, headcount choices
DEPARTMENTS = [
    ("ENG", "Engineering", "CC-110", 0.34, 62, 0.66, [1] * 9 + [2]),
    ("PRD", "Product", "CC-120", 0.07, 60, 0.79, [1]),
    ("DES", "Design", "CC-130", 0.04, 75, 0.82, [1]),
    ("DAT", "Data & Analytics", "CC-140", 0.07, 62, 0.72, [1] * 4 + [2]),
    ("SAL", "Sales", "CC-210", 0.18, 38, 0.88, [1, 1, 2, 2, 3, 4]),
    ("CSM", "Customer Success", "CC-220", 0.11, 42, 0.86, [1, 1, 2, 3]),
    ("MKT", "Marketing", "CC-230", 0.07, 68, 0.81, [1]),
    ("FIN", "Finance", "CC-310", 0.04, 50, 0.84, [1]),
    ("PPL", "People", "CC-320", 0.03, 70, 0.85, [1]),
    ("OPS", "Operations", "CC-330", 0.05, 40, 0.83, [1, 1, 2]),
]
# title, level, base salary mid-point (USD)
TITLES = {
    "ENG": [("Software Engineer", "L3", 135000), ("Senior Software Engineer", "L4", 175000),
            ("Staff Software Engineer", "L5", 215000), ("Engineering Manager", "M1", 205000),
            ("Site Reliability Engineer", "L4", 170000), ("Frontend Engineer", "L3", 140000),
            ("Backend Engineer", "L4", 165000), ("QA Engineer", "L2", 110000),
            ("iOS Engineer", "L4", 165000), ("Security Engineer", "L4", 180000)],
    "PRD": [("Product Manager", "L3", 145000), ("Senior Product Manager", "L4", 180000),
            ("Group Product Manager", "M2", 225000), ("Technical Program Manager", "L4", 165000)],
    "DES": [("Product Designer", "L3", 125000), ("Senior Product Designer", "L4", 155000),
            ("UX Researcher", "L3", 130000), ("Content Designer", "L3", 115000)],
    "DAT": [("Data Analyst", "L2", 100000), ("Data Scientist", "L4", 160000), ("Analytics Engineer", "L3", 140000),
            ("Data Engineer", "L4", 165000), ("Machine Learning Engineer", "L5", 200000)],
    "SAL": [("Account Executive", "L3", 95000), ("Senior Account Executive", "L4", 125000),
            ("Sales Development Representative", "L1", 62000), ("Sales Manager", "M1", 150000),
            ("Solutions Engineer", "L4", 145000)],
    "CSM": [("Customer Success Manager", "L3", 90000), ("Support Specialist", "L1", 58000),
            ("Implementation Consultant", "L3", 95000), ("Support Team Lead", "M1", 105000)],
    "MKT": [("Growth Marketing Manager", "L3", 120000), ("Product Marketing Manager", "L4", 140000),
            ("Content Marketing Manager", "L3", 105000), ("Marketing Operations Specialist", "L2", 85000),
            ("Brand Designer", "L3", 100000)],
    "FIN": [("Financial Analyst", "L2", 90000), ("Senior Accountant", "L3", 105000),
            ("Payroll Specialist", "L2", 78000), ("FP&A Manager", "M1", 150000)],
    "PPL": [("Recruiter", "L3", 95000), ("People Partner", "L4", 130000), ("Recruiting Coordinator", "L1", 62000),
            ("People Operations Specialist", "L2", 75000)],
    "OPS": [("Office Manager", "L2", 72000), ("IT Support Specialist", "L2", 70000), ("Legal Counsel", "L5", 190000),
            ("Procurement Specialist", "L2", 82000), ("Business Operations Analyst", "L3", 98000)],
}
LOCATIONS = ["New York", "New York", "New York", "Austin", "Austin", "Denver", "Remote - US", "Remote - US"]
# recruiters: name, departments served with weights, active from, active until
RECRUITERS = [
    ("Dana Whitlock", {"ENG": 6, "DAT": 1}, None, None),
    ("Alex Moreno", {"ENG": 3}, None, None),
    ("Ken Watanabe", {"ENG": 2, "DAT": 2, "PRD": 1}, None, None),
    ("Tom Fischer", {"ENG": 3}, None, dt.datetime(2024, 4, 30)),
    ("Priya Raman", {"PRD": 3, "DES": 3, "DAT": 2, "MKT": 1}, None, None),
    ("Alex Kim", {"SAL": 3, "CSM": 1}, None, None),
    ("Marcus Bell", {"SAL": 3}, None, None),
    ("Rachel Osei", {"SAL": 3, "CSM": 2}, dt.datetime(2024, 3, 1), None),
    ("Sofia Alvarez", {"CSM": 3, "OPS": 3}, None, None),
    ("Leah Goldberg", {"MKT": 2, "FIN": 3, "PPL": 3, "OPS": 1}, None, None),
]
COORDINATORS = ["Jamie Ortega", "Brooke Lang", "Victor Mensah"]
HM_COUNT = {"ENG": 8, "PRD": 3, "DES": 2, "DAT": 3, "SAL": 5, "CSM": 4, "MKT": 3, "FIN": 2, "PPL": 2, "OPS": 3}
INT_COUNT = {"ENG": 45, "PRD": 8, "DES": 6, "DAT": 10, "SAL": 14, "CSM": 12, "MKT": 8, "FIN": 5, "PPL": 5, "OPS": 6}
# interviewers who are slow with scorecards: name, department, chance the scorecard never comes, weight
LAGGARDS = [("Greg Halvorsen", "ENG", 0.36, 4.0), ("Nina Sorensen", "SAL", 0.33, 2.5),
            ("Owen Pratt", "ENG", 0.22, 2.0), ("Farah Haddad", "DAT", 0.30, 1.5)]
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priyanka", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac",
         "Aisha", "Mohammed", "Chen", "Ines", "Raj", "Yuki", "Kwame", "Elena", "Marco", "Sara", "Jonah",
         "Tariq", "Mei", "Lars", "Ana", "Caleb", "Zara", "Hugo", "Naomi", "Felix", "Imani", "Luca"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer",
        "Cohen", "Shah", "Mensah", "Rossi", "Dubois", "Kowalski", "Bauer", "Sato", "Reyes", "Murphy"]
CITIES = ["New York, NY", "Brooklyn, NY", "Jersey City, NJ", "Austin, TX", "Denver, CO", "Boston, MA",
          "Chicago, IL", "San Francisco, CA", "Seattle, WA", "Atlanta, GA", "Philadelphia, PA",
          "Los Angeles, CA", "Raleigh, NC", "Minneapolis, MN", "Portland, OR", "Miami, FL", "Houston, TX"]
SOURCES = ["JB", "CS", "REF", "SRC", "AGY", "EVT"]
SOURCE_MIX = {  # per department: weights in SOURCES order
    "ENG": [40, 22, 10, 14, 9, 5], "PRD": [40, 26, 11, 13, 6, 4], "DES": [42, 30, 10, 10, 4, 4],
    "DAT": [38, 24, 9, 12, 5, 12], "SAL": [50, 22, 9, 10, 5, 4], "CSM": [48, 28, 9, 7, 3, 5],
    "MKT": [44, 30, 10, 8, 4, 4], "FIN": [42, 26, 8, 8, 12, 4], "PPL": [46, 30, 10, 8, 2, 4],
    "OPS": [48, 28, 10, 6, 4, 4],
}
SOURCE_DETAIL = {
    "JB": ["LinkedIn Jobs", "Indeed", "Glassdoor", "Wellfound", "Built In"],
    "AGY": ["Hirewell Partners", "TalentBridge", "Northpoint Search"],
    "EVT": ["Grace Hopper Celebration", "UT Austin career fair", "NYC Tech Meetup", "SaaStr Annual"],
}
SCREEN_MULT = {"JB": 0.62, "CS": 1.0, "REF": 3.3, "SRC": 2.4, "AGY": 2.6, "EVT": 0.85}
LATER_MULT = {"JB": 0.9, "CS": 1.0, "REF": 1.3, "SRC": 1.0, "AGY": 1.1, "EVT": 0.9}
P_ADVANCE = {10: 0.20, 20: 0.55, 30: 0.55, 40: 0.42}
P_WITHDRAW = {10: 0.02, 20: 0.06, 30: 0.07, 40: 0.06}
NEXT_WAIT = {10: (1, 9), 20: (1, 6), 30: (2, 8), 40: (4, 12)}   # days from entering a stage to its interview / review
SPEED = {"ENG": 1.45, "DAT": 1.2, "PRD": 1.1, "DES": 1.0, "SAL": 0.65, "CSM": 0.8, "MKT": 1.0, "FIN": 1.05,
         "PPL": 0.9, "OPS": 0.85}                                   # slower (>1) or faster hiring loops


class Clock:
    """Business-hours times in New York (naive local datetimes; converted to UTC at the end)."""

    def __init__(self, r: random.Random):
        self.r = r

    def at_day(self, day: dt.date, weekdays_only: bool = True) -> dt.datetime:
        while weekdays_only and day.weekday() >= 5:
            day += dt.timedelta(days=1)
        minute = self.r.randint(8 * 60, 18 * 60 + 30)
        return dt.datetime.combine(day, dt.time(minute // 60, minute % 60, self.r.randint(0, 59)))

    def after(self, t: dt.datetime, lo: float, hi: float, weekdays_only: bool = True) -> dt.datetime:
        """A business-hours moment lo..hi days after t (strictly later)."""
        day = (t + dt.timedelta(days=self.r.uniform(lo, hi))).date()
        out = self.at_day(day, weekdays_only)
        if out <= t:
            out = self.at_day(t.date() + dt.timedelta(days=1), weekdays_only)
        return out


def build():
    r = random.Random(SEED)
    clock = Clock(r)

    # ------------------------------------------------------------- departments and users
    departments, dept_id = [], {}
    for i, (code, name, cc, *_rest) in enumerate(DEPARTMENTS, start=1):
        departments.append((i, code, name, cc))
        dept_id[code] = i
    dinfo = {d[0]: dict(share=d[3], apps=d[4], accept=d[5], heads=d[6]) for d in DEPARTMENTS}

    users, used_names = [], set()
    uid = 0

    def add_user(name, title, role, dcode, created, active=True):
        nonlocal uid
        uid += 1
        used_names.add(name)
        email = name.lower().replace(" ", ".").replace("'", "") + "@lumenhq.com"
        users.append([uid, name, email, title, role, dept_id[dcode], active, created])
        return uid

    def new_name():
        while True:
            name = f"{r.choice(FIRST)} {r.choice(LAST)}"
            if name not in used_names:
                return name

    recruiters = []  # (user id, dept weights, from, until)
    for name, weights, since, until in RECRUITERS:
        created = since or dt.datetime(2021, 5, 3, 10, 0) + dt.timedelta(days=r.randint(0, 500))
        u = add_user(name, "Senior Recruiter" if r.random() < 0.4 else "Recruiter", "REC", "PPL", created,
                     active=until is None)
        recruiters.append((u, weights, since, until))
    for name in COORDINATORS:
        add_user(name, "Recruiting Coordinator", "CRD", "PPL", dt.datetime(2022, 2, 1, 10) + dt.timedelta(days=r.randint(0, 300)))
    hms, interviewers, laggard = {}, {}, {}
    for code, *_ in DEPARTMENTS:
        hms[code] = []
        for _ in range(HM_COUNT[code]):
            u = add_user(new_name(), "Manager, " + dict((d[0], d[1]) for d in DEPARTMENTS)[code], "HMG", code,
                         dt.datetime(2020, 1, 6, 10) + dt.timedelta(days=r.randint(0, 1000)))
            hms[code].append(u)
        interviewers[code] = [(u, 1.0) for u in hms[code]]
        for _ in range(INT_COUNT[code]):
            u = add_user(new_name(), r.choice(TITLES[code])[0], "INT", code, dt.datetime(2019, 6, 3, 10) + dt.timedelta(days=r.randint(0, 1200)))
            interviewers[code].append((u, r.uniform(0.4, 1.6)))
    for name, code, miss, weight in LAGGARDS:
        u = add_user(name, r.choice(TITLES[code])[0], "INT", code,
                     dt.datetime(2021, 3, 1, 10) + dt.timedelta(days=r.randint(0, 200)))
        interviewers[code].append((u, weight))
        laggard[u] = miss
    # a few interviewers left the company in 2024-2025
    for row in users:
        if row[4] == "INT" and r.random() < 0.06:
            row[6] = False
    all_staff = [row[0] for row in users]

    # ------------------------------------------------------------- reqs
    req_plan = []
    month = dt.date(2023, 1, 1)
    while month <= dt.date(2025, 6, 1):
        per_month = {2023: 20, 2024: 24, 2025: 22}[month.year]
        n = max(8, int(r.gauss(per_month, 3)))
        for _ in range(n):
            day = month + dt.timedelta(days=r.randint(0, 27))
            opened = clock.at_day(day)
            if opened < START or opened > EXTRACT - dt.timedelta(days=1):
                continue
            code = r.choices(list(dinfo), weights=[d["share"] for d in dinfo.values()])[0]
            req_plan.append((opened, code))
        month = (month.replace(day=28) + dt.timedelta(days=5)).replace(day=1)
    req_plan.sort()

    reqs = []
    for rid, (opened, code) in enumerate(req_plan, start=1):
        title, level, mid = r.choice(TITLES[code])
        pool = [(u, w[code]) for u, w, since, until in recruiters
                if code in w and (since is None or opened >= since) and (until is None or opened <= until)]
        rec = r.choices([p[0] for p in pool], weights=[p[1] for p in pool])[0]
        reqs.append(dict(id=rid, code=code, title=title, level=level, mid=mid, opened=opened,
                         heads=r.choice(dinfo[code]["heads"]), rec=rec, hm=r.choice(hms[code]),
                         loc=r.choice(LOCATIONS)))

    # ------------------------------------------------------------- candidates and applications
    cands = []        # dicts
    past_pool = []    # candidate indexes who may apply again
    apps = []         # dicts

    def new_candidate(created, code, src=None):
        src = src or r.choices(SOURCES, weights=SOURCE_MIX[code])[0]
        first, last = r.choice(FIRST), r.choice(LAST)
        n = len(cands) + 1
        email = f"{first}.{last}{r.randint(1, 999)}@{r.choice(['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'proton.me'])}".lower().replace("'", "")
        detail = r.choice(SOURCE_DETAIL[src]) if src in SOURCE_DETAIL else None
        ref = r.choice(all_staff) if src == "REF" else None
        cands.append(dict(first=first, last=last, email=email, city=r.choice(CITIES) if r.random() < 0.93 else None,
                          src=src, detail=detail, ref=ref, created=created, test=False, deleted=None, n=n))
        return len(cands) - 1

    def trajectory(req, cand, applied):
        """Events of one application if nothing stopped it: a list of (time, kind, data)."""
        src = cands[cand]["src"]
        ev = [(applied, "stage", 10)]
        t = applied
        stage = 10
        while stage < 50:
            mult = SCREEN_MULT[src] if stage == 10 else LATER_MULT[src]
            lo, hi = (x * SPEED[req["code"]] for x in NEXT_WAIT[stage])
            if stage == 10:
                decide = clock.after(t, lo, hi * (2.5 if r.random() < 0.15 else 1))
                iv = None
            else:
                iv = clock.after(t, lo, hi)
                if stage == 40:  # an onsite: back-to-back sessions from late morning, decided afterwards
                    iv = iv.replace(hour=r.randint(9, 13), minute=r.choice([0, 15, 30, 45]), second=0)
                decide = clock.after(iv + dt.timedelta(hours=6), 0.2, 3.5)
            p_adv = min(0.95, P_ADVANCE[stage] * mult)
            u = r.random()
            outcome = "adv" if u < p_adv else ("W" if u < p_adv + P_WITHDRAW[stage] else "R")
            closed = None
            if outcome != "adv":
                closed = decide if outcome == "R" else clock.after(t, 0.5, (decide - t).days + 1)
            if iv is not None:  # a candidate who withdrew before the interview never had it
                ev.append((iv, "interview", (stage, "Wc" if closed and closed < iv + dt.timedelta(hours=6) else outcome)))
            if closed:
                ev.append((closed, "close", outcome))
                return ev
            stage += 10
            t = decide
            ev.append((t, "stage", stage))
        # offer
        accept_p = dinfo[req["code"]]["accept"] + (0.08 if src == "REF" else 0) - (0.05 if src == "AGY" else 0)
        sent = clock.after(t, 0, 2)
        revised = False
        while True:
            respond = clock.after(sent, 1, 7)
            yes = r.random() < (accept_p if not revised else 0.6)
            ev.append((sent, "offer", (yes, respond, revised)))
            if yes:
                ev.append((respond, "stage", 60))
                ev.append((respond, "close", "H"))
                return ev
            if not revised and r.random() < 0.3:
                revised = True
                sent = clock.after(respond, 1, 5)
                continue
            ev.append((respond, "close", "W"))
            return ev

    for req in reqs:
        code = req["code"]
        opened = req["opened"]
        # a few reqs are cancelled right away or opened in the last days: no applicants at all
        quick_cancel = r.random() < 0.018
        cancel_at = None
        if quick_cancel:
            cancel_at = clock.after(opened, 1, 9)
        elif r.random() < 0.06:
            cancel_at = clock.after(opened, 25, 150)
        posted = clock.after(opened, 0.5, 6, weekdays_only=False)
        # waves of applicants: the posting, then re-posts every ~6-7 weeks while still open
        arrivals = []
        wave_start, wave = posted, 0
        while wave_start < EXTRACT and wave < 8:
            mean = dinfo[code]["apps"] * (0.75 + 0.25 * req["heads"]) * (1.0 if wave == 0 else 0.45)
            for _ in range(max(0, int(r.gauss(mean, mean * 0.25)))):
                a = wave_start + dt.timedelta(days=r.expovariate(1 / 12))
                a = clock.at_day(a.date(), weekdays_only=False)
                arrivals.append(a if a > posted else clock.after(posted, 0, 1, weekdays_only=False))
            wave_start = clock.after(wave_start, 40, 52)
            wave += 1
        arrivals.sort()
        if quick_cancel:
            arrivals = []
        # play the applications in time order; the req fills when headcount offers are accepted
        trajs = []
        for applied in arrivals:
            if applied > EXTRACT or (cancel_at and applied >= cancel_at):
                continue
            cand = None
            if past_pool and r.random() < 0.11:  # someone already in the ATS applies again
                cand = r.choice(past_pool)
                if cands[cand]["created"] > applied - dt.timedelta(days=14) \
                        or any(a["cand"] == cand for a in trajs):
                    cand = None
            if cand is None:
                cand = new_candidate(applied - dt.timedelta(minutes=r.randint(1, 30)), code)
            trajs.append(dict(cand=cand, req=req["id"], applied=applied, ev=trajectory(req, cand, applied)))
        # one offer per open slot at a time: a finalist who would get an offer while the slots are
        # taken by accepted or outstanding offers is turned down at that point instead
        finalists = sorted((next(e[0] for e in tr["ev"] if e[1] == "stage" and e[2] == 50), i)
                           for i, tr in enumerate(trajs) if any(e[1] == "offer" for e in tr["ev"]))
        granted = []  # (resolved at, accepted)
        for s50, i in finalists:
            ev = trajs[i]["ev"]
            close = next(e for e in ev if e[1] == "close")
            taken = sum(1 for when, yes in granted if yes and when <= s50) + sum(1 for when, _ in granted if when > s50)
            if taken < req["heads"]:
                granted.append((close[0], close[2] == "H"))
            else:
                trajs[i]["ev"] = [e for e in ev if e[0] < s50 and e[1] != "close"] + [(s50, "close", "R")]
        accepts = sorted((e[2][1], i) for i, tr in enumerate(trajs) for e in tr["ev"] if e[1] == "offer" and e[2][0])
        fill_at, hired = None, set()
        for when, i in accepts:
            if when > EXTRACT or (cancel_at and when >= cancel_at):
                break
            hired.add(i)
            if len(hired) == req["heads"]:
                fill_at = when
                break
        stop = fill_at or cancel_at
        if fill_at:
            req["status"], req["closed"] = "F", fill_at
        elif cancel_at and cancel_at <= EXTRACT:
            req["status"], req["closed"] = "C", cancel_at
        elif not hired and (EXTRACT - opened).days > 200 and r.random() < 0.7:
            # stale reqs get cancelled; their applicants are closed out below via `stop`
            req["status"], req["closed"] = "C", clock.after(opened, 190, 200)
            stop = req["closed"]
        else:
            req["status"], req["closed"] = ("H" if r.random() < 0.12 else "O"), None
        cutoff = min(stop, EXTRACT) if stop else EXTRACT
        for i, tr in enumerate(trajs):
            if tr["applied"] >= cutoff and stop:
                continue
            app = dict(cand=tr["cand"], req=req["id"], applied=tr["applied"], stages=[], interviews=[], offers=[],
                       status="A", closed=None)
            for when, kind, data in tr["ev"]:
                if kind == "interview":
                    if when + dt.timedelta(hours=5) <= cutoff:  # the whole (panel) interview was held
                        app["interviews"].append((when, data[0], data[1], "canceled" if data[1] == "Wc" else "done"))
                    elif when <= cutoff + dt.timedelta(days=14):
                        app["interviews"].append((when, data[0], data[1], "scheduled" if cutoff == EXTRACT and not stop
                                                  else "canceled"))
                    continue
                if kind == "offer":
                    yes, respond, revised = data
                    if when > cutoff:
                        continue
                    if respond > cutoff:
                        status = "P" if (cutoff == EXTRACT and not stop) else "R"
                        app["offers"].append((when, status, None, revised))
                    else:
                        app["offers"].append((when, "A" if yes else "D", respond, revised))
                    continue
                if when > cutoff:
                    break
                if kind == "stage":
                    if data == 60 and i not in hired:
                        break
                    app["stages"].append((when, data))
                elif kind == "close":
                    if data == "H" and i not in hired:
                        break
                    app["status"], app["closed"] = data, when
            if app["status"] == "A" and stop and stop <= EXTRACT:
                # the req was filled or cancelled: everyone still in process is rejected
                close = clock.after(stop, 0, 3)
                app["status"], app["closed"] = "R", min(close, EXTRACT - dt.timedelta(minutes=5))
                app["interviews"] = [iv if iv[3] == "done" else (iv[0], iv[1], "R", "canceled") for iv in app["interviews"]]
                app["offers"] = [o if o[1] != "P" else (o[0], "R", None, o[3]) for o in app["offers"]]
            elif app["status"] == "A":
                app["offers"] = [o if o[2] is None or o[1] != "A" else (o[0], "P", None, o[3]) for o in app["offers"]]
            if app["status"] != "A":  # nothing is still on the calendar for a closed application
                app["interviews"] = [iv if iv[3] != "scheduled" else (*iv[:3], "canceled") for iv in app["interviews"]]
            apps.append(app)
            if app["status"] in ("R", "W") and r.random() < 0.5:
                past_pool.append(tr["cand"])

    # ------------------------------------------------------------- test candidates (QA) and duplicates
    test_apps = []
    eng_reqs_2024 = [q for q in reqs if q["code"] == "ENG" and q["opened"].year == 2024]
    sal_reqs_2025 = [q for q in reqs if q["code"] == "SAL" and q["opened"].year == 2025]
    with_apps = {a["req"] for a in apps}
    fresh = sorted((q for q in reqs if q["id"] not in with_apps), key=lambda q: q["opened"], reverse=True)[:2]
    test_targets = []
    for k in range(34):
        if k < 3:
            req, outcome = eng_reqs_2024[k * 7 % len(eng_reqs_2024)], "H"
        elif k == 3:
            req, outcome = sal_reqs_2025[0], "H"
        elif k < 6 and len(fresh) > k - 4:
            req, outcome = fresh[k - 4], "A"
        else:
            req, outcome = r.choice(reqs), r.choice(["R", "R", "R", "A", "W"])
        test_targets.append((req, outcome))
    for k, (req, outcome) in enumerate(test_targets):
        first, last = r.choice([("Test", "Candidate"), ("QA", "Tester"), ("Test", "Test"), ("Do Not", "Use"),
                                ("Sandbox", "User")])
        created = clock.after(req["opened"], 0, 3) if outcome != "H" else clock.after(req["opened"], 3, 20)
        cands.append(dict(first=first, last=f"{last} {k + 1}", email=f"qa+{k + 1:03d}@lumenhq.com", city=None,
                          src=r.choice(["CS", "JB", "REF"]), detail=None, ref=None, created=created, test=True,
                          deleted=None, n=len(cands) + 1))
        ci = len(cands) - 1
        created = min(created, EXTRACT - dt.timedelta(days=2, hours=r.randint(0, 5)))
        cands[ci]["created"] = created
        applied = created + dt.timedelta(minutes=r.randint(1, 20))
        app = dict(cand=ci, req=req["id"], applied=applied, stages=[(applied, 10)], interviews=[], offers=[],
                   status=outcome, closed=None)
        if outcome == "H":
            t = applied
            for s in (20, 30, 40, 50):
                t = t + dt.timedelta(minutes=r.randint(2, 20))
                app["stages"].append((t, s))
            sent = t + dt.timedelta(minutes=5)
            resp = sent + dt.timedelta(minutes=r.randint(3, 30))
            app["offers"].append((sent, "A", resp, False, 100))
            app["stages"].append((resp, 60))
            app["closed"] = resp
        elif outcome in ("R", "W"):
            app["closed"] = clock.after(applied, 0, 2)
        if app["closed"] and app["closed"] > EXTRACT:
            app["status"], app["closed"] = "A", None
        test_apps.append(app)
    apps.extend(test_apps)

    # candidates created for applications that never happened (after a req closed) are dropped
    kept = sorted({a["cand"] for a in apps})
    for c in cands:
        c["keep"] = False
    for ci in kept:
        cands[ci]["keep"] = True
    real = [ci for ci in kept if not cands[ci]["test"]]
    # duplicates: a second profile of a real person, merged away (soft-deleted), no applications
    for ci in r.sample(real, k=int(0.016 * len(real))):
        c = cands[ci]
        created = clock.after(c["created"], 0.01, 20, weekdays_only=False)
        if created > EXTRACT:
            continue
        deleted = clock.after(created, 0.5, 10)
        if deleted > EXTRACT:
            continue
        cands.append(dict(c, keep=True, email=c["email"].replace("@", ".dup@") if r.random() < 0.3 else c["email"],
                          created=created, deleted=deleted, n=len(cands) + 1,
                          src=c["src"] if r.random() < 0.7 else r.choice(["CS", "JB"])))

    # ------------------------------------------------------------- ids in time order, rows
    order = sorted((i for i in range(len(cands)) if cands[i]["keep"]), key=lambda i: (cands[i]["created"], i))
    cand_id = {ci: k + 1 for k, ci in enumerate(order)}
    candidates_rows = []
    for ci in order:
        c = cands[ci]
        candidates_rows.append((cand_id[ci], c["first"], c["last"], c["email"], c["city"], c["src"], c["detail"],
                                c["ref"], c["created"], c["test"], c["deleted"]))
    apps.sort(key=lambda a: (a["applied"], cand_id[a["cand"]], a["req"]))
    req_by_id = {q["id"]: q for q in reqs}
    application_rows, history_rows, interview_rows, offer_rows = [], [], [], []
    hid = ivid = oid = 0
    for aid, a in enumerate(apps, start=1):
        req = req_by_id[a["req"]]
        code = req["code"]
        stage = max(s for _, s in a["stages"])
        application_rows.append((aid, cand_id[a["cand"]], a["req"], a["applied"], stage, a["status"], a["closed"]))
        prev = None
        for when, s in sorted(a["stages"]):
            hid += 1
            by = None if prev is None else (req["rec"] if s <= 30 or r.random() < 0.7 else req["hm"])
            history_rows.append((hid, aid, prev, s, when, by))
            prev = s
        for when, s, outcome, state in a["interviews"]:
            if s == 20:
                panel = [(req["rec"], "PS", 30)]
            elif s == 30:
                panel = [(req["hm"], "HM", 45)]
            else:
                kinds = ["TEC", "TEC", "PNL", "PNL"] if code in ("ENG", "DAT") else ["CAS", "PNL", "PNL", "HM"]
                pool = interviewers[code]
                people = []
                while len(people) < r.choice([3, 4, 4]):
                    u = r.choices([p[0] for p in pool], weights=[p[1] for p in pool])[0]
                    if u not in people:
                        people.append(u)
                panel = [(u, kinds[k], 60 if kinds[k] != "PNL" else 45) for k, u in enumerate(people)]
            for k, (who, kind, minutes) in enumerate(panel):
                at = when + dt.timedelta(minutes=sum(p[2] for p in panel[:k]) + 15 * k)
                status = {"done": "completed", "scheduled": "scheduled", "canceled": "canceled"}[state]
                if status == "scheduled" and at + dt.timedelta(minutes=minutes) <= EXTRACT:
                    status = "completed"  # the extract-day sessions already held
                rating = submitted = None
                for state_before, chance, days in (("no_show", 0.03, (2, 5)), ("canceled", 0.04, (1, 4))):
                    # the candidate did not turn up, or the slot was moved: the held one came a few days later
                    earlier = at - dt.timedelta(days=r.randint(*days))
                    if status == "completed" and r.random() < chance and earlier > a["applied"] + dt.timedelta(days=1):
                        ivid += 1
                        interview_rows.append((ivid, aid, who, kind, earlier, minutes, state_before, None, None))
                if status == "completed":
                    miss = laggard.get(who, 0.025)
                    if r.random() >= miss:
                        lag = min(20.0, r.lognormvariate(math.log(0.5), 1.0))  # days
                        done = at + dt.timedelta(minutes=minutes)
                        submitted = clock.after(done, lag, lag, weekdays_only=False)
                        if submitted > EXTRACT:
                            submitted = None
                        else:
                            good = outcome == "adv"
                            weights = [4, 14, 50, 32] if good else [30, 45, 20, 5]
                            rating = r.choices([1, 2, 3, 4], weights=weights)[0]
                ivid += 1
                interview_rows.append((ivid, aid, who, kind, at, minutes, status, rating, submitted))
        for offer in a["offers"]:
            sent, status, responded, revised = offer[:4]
            oid += 1
            if len(offer) > 4:
                base = offer[4]
                signon = None
            else:
                base = int(round(req["mid"] * r.uniform(0.9, 1.12) * (1.06 if revised else 1.0) / 500.0)) * 500 * 100
                signon = r.choice([None, None, None, 500000, 1000000, 1500000, 2500000])
            start = (responded + dt.timedelta(days=r.randint(14, 35))).date() if status == "A" else None
            if start is not None:
                while start.weekday() != 0:
                    start += dt.timedelta(days=1)
            offer_rows.append((oid, aid, sent, base, signon, status, responded, start))

    # ids follow creation time, as the ATS hands them out
    history_rows = [(k, *row[1:]) for k, row in enumerate(sorted(history_rows, key=lambda x: (x[4], x[0])), start=1)]
    interview_rows = [(k, *row[1:]) for k, row in enumerate(sorted(interview_rows, key=lambda x: (x[4], x[0])), start=1)]
    offer_rows = [(k, *row[1:]) for k, row in enumerate(sorted(offer_rows, key=lambda x: (x[2], x[0])), start=1)]
    req_rows, year_count = [], {}
    for q in reqs:
        lo = int(q["mid"] * 0.85 / 1000) * 1000 * 100
        hi = int(q["mid"] * 1.15 / 1000) * 1000 * 100
        year_count[(q["code"], q["opened"].year)] = year_count.get((q["code"], q["opened"].year), 0) + 1
        req_rows.append((q["id"], f"{q['code']}-{q['opened'].year}-{year_count[(q['code'], q['opened'].year)]:03d}",
                         q["title"], dept_id[q["code"]], q["level"], q["loc"], q["heads"], q["rec"], q["hm"],
                         lo, hi, q["status"], q["opened"], q["closed"]))
    users_rows = [tuple(u) for u in users]
    return {
        "department": departments,
        "users": users_rows,
        "job_reqs": req_rows,
        "candidates": candidates_rows,
        "application": application_rows,
        "application_stage_history": history_rows,
        "interviews": interview_rows,
        "offers": offer_rows,
    }


def to_utc(value):
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=NY).astimezone(UTC)
    return value


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
        con.execute("SET TimeZone = 'UTC'")
        con.execute(f"CREATE SCHEMA {SCHEMA}")
        for ddl in DDL:
            con.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            con.execute(f"COMMENT ON TABLE {SCHEMA}.{table} IS {_quote(comment)}")
        for (table, column), comment in COLUMN_COMMENTS.items():
            con.execute(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {_quote(comment)}")
        counts = {}
        for table, rows in tables.items():
            _bulk_insert(con, table, [tuple(to_utc(v) for v in row) for row in rows])
            counts[f"{SCHEMA}.{table}"] = con.execute(f"SELECT count(*) FROM {SCHEMA}.{table}").fetchone()[0]
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded the synthetic recruiting ATS into DuckDB file {path}:")
    _common.print_counts(counts, URL if path == DEFAULT_PATH else f"duckdb://{path}",
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no users: the bot opens the file read-only)")


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _bulk_insert(con, table, rows):
    """Insert through a pandas frame, one column at a time so NULLs keep their column's type."""
    import pandas as pd

    columns = [c[0] for c in con.execute(f"SELECT * FROM {SCHEMA}.{table} LIMIT 0").description]
    data = {}
    for k, name in enumerate(columns):
        values = [row[k] for row in rows]
        sample = next((v for v in values if v is not None), None)
        if isinstance(sample, bool):
            data[name] = pd.array(values, dtype="boolean")
        elif isinstance(sample, int):
            data[name] = pd.array(values, dtype="Int64")
        elif isinstance(sample, dt.datetime):
            data[name] = pd.to_datetime(pd.Series(values, dtype="object"), utc=True)
        else:
            data[name] = pd.Series(values, dtype="object")
    frame = pd.DataFrame(data)
    con.register("frame", frame)
    con.execute(f"INSERT INTO {SCHEMA}.{table} SELECT * FROM frame")
    con.unregister("frame")


if __name__ == "__main__":
    main()

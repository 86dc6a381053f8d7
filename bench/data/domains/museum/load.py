#!/usr/bin/env python3
"""A synthetic city museum group (2023-2024) on MariaDB, database dev_museum.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and recreates database dev_museum, loads seven tables generated deterministically with
random.Random(23), and creates (or resets) the read-only user museum_reader / museum_reader.
Idempotent: the same rows on every run.

Naming: snake_case; every non-key column carries a terse table prefix (sit_, exh_, mbr_, tkt_,
prd_, pos_, grp_); keys are <entity>_id. Primary keys are declared, foreign keys are NOT (they are
only implied by the *_id names). Code columns say what their codes mean in column COMMENTs.

  sites         3 sites; Harbor Museum Riverside opened 2024-05-18 (mid-period)
  exhibitions   permanent (P) and temporary (T) shows per site; "Wild Light" ran twice
                (Natural History 2023, Riverside 2024)
  members       one row per membership household; tier is a one-letter code; the fee is in whole
                US dollars (everything else money is in cents); soft-deleted rows (mbr_deleted_at)
  tickets       one row per timed admission ticket (one person, one time slot); tkt_slot_at is the
                visit, tkt_sold_at the purchase; comps, member tickets, refunds, voids, and test
                rows from the ticketing vendor (channel T)
  products      gift-shop catalogue, list price in cents
  pos_lines     point-of-sale lines from the gift shops: one row per product line of a receipt,
                amounts in cents, voided lines flagged
  group_visits  booked groups (schools, tour operators, senior centres); students are counted
                here as a headcount and get no tickets
Data: 2023-01-01 .. 2024-12-31 (extract of 2024-12-31); advance tickets and group bookings
reach into early 2025.
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, USER = "dev_museum", "museum_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 23
FIRST_DAY, EXTRACT_DAY = dt.date(2023, 1, 1), dt.date(2024, 12, 31)
ADVANCE_END = dt.date(2025, 1, 30)   # web tickets already sold for these visit days

DDL = {
    "sites": """
        site_id INT NOT NULL PRIMARY KEY,
        sit_name VARCHAR(60) NOT NULL,
        sit_short_code CHAR(3) NOT NULL COMMENT 'internal code: HMA, NHH, HMR',
        sit_neighborhood VARCHAR(40) NOT NULL,
        sit_opened_on DATE NOT NULL COMMENT 'date the site opened to the public',
        sit_closed_days VARCHAR(20) NOT NULL COMMENT 'weekdays the site is closed to the public'
        """,
    "exhibitions": """
        exhibition_id INT NOT NULL PRIMARY KEY,
        site_id INT NOT NULL,
        exh_title VARCHAR(80) NOT NULL,
        exh_kind CHAR(1) NOT NULL COMMENT 'P = permanent collection gallery, T = temporary (ticketed special) exhibition',
        exh_opens_on DATE NOT NULL,
        exh_closes_on DATE NULL COMMENT 'last public day; NULL for permanent galleries',
        exh_surcharge_cents INT NOT NULL COMMENT 'added to the admission price for a ticket to this exhibition, in cents'
        """,
    "members": """
        member_id INT NOT NULL PRIMARY KEY,
        mbr_first_name VARCHAR(40) NOT NULL,
        mbr_last_name VARCHAR(40) NOT NULL,
        mbr_email VARCHAR(80) NOT NULL,
        mbr_tier CHAR(1) NOT NULL COMMENT 'I = Individual, D = Dual, F = Family, P = Patron',
        site_id INT NOT NULL COMMENT 'home site where the membership was sold',
        mbr_joined_on DATE NOT NULL COMMENT 'first day of the first membership year',
        mbr_expires_on DATE NOT NULL COMMENT 'last day of the current (latest paid) membership year',
        mbr_fee_usd INT NOT NULL COMMENT 'annual fee of the tier in whole US dollars (not cents)',
        mbr_auto_renew TINYINT(1) NOT NULL COMMENT '1 = renews automatically',
        mbr_deleted_at DATETIME NULL COMMENT 'soft delete: set when the record was removed (merged duplicate or staff test record); such rows are not members'
        """,
    "tickets": """
        ticket_id INT NOT NULL PRIMARY KEY,
        site_id INT NOT NULL,
        exhibition_id INT NULL COMMENT 'temporary exhibition the ticket admits to; NULL = general admission only',
        member_id INT NULL COMMENT 'set for member tickets (type MB)',
        tkt_type CHAR(2) NOT NULL COMMENT 'AD = adult, SR = senior 65+, ST = student, CH = child 4-17, MB = member (free)',
        tkt_channel CHAR(1) NOT NULL COMMENT 'W = web, B = box office, K = lobby kiosk, T = vendor test transaction (not a real sale)',
        tkt_sold_at DATETIME NOT NULL COMMENT 'when the ticket was bought',
        tkt_slot_at DATETIME NOT NULL COMMENT 'timed entry slot: the date and time of the visit',
        tkt_price_cents INT NOT NULL COMMENT 'price paid in cents, incl. any exhibition surcharge; 0 for comps and member tickets; kept as sold on refunded and voided rows',
        tkt_comp_code VARCHAR(5) NULL COMMENT 'complimentary ticket reason: STAFF, PRESS, VIP, PROMO; NULL = not a comp',
        tkt_status CHAR(1) NOT NULL COMMENT 'V = valid, R = refunded, X = voided at the box office (issued in error)',
        tkt_refunded_on DATE NULL COMMENT 'date of the refund; only for status R'
        """,
    "products": """
        product_id INT NOT NULL PRIMARY KEY,
        prd_sku VARCHAR(12) NOT NULL,
        prd_name VARCHAR(60) NOT NULL,
        prd_category VARCHAR(12) NOT NULL COMMENT 'BOOK, PRINT, TOY, APPAREL, HOME, JEWELRY',
        prd_list_price_cents INT NOT NULL COMMENT 'current list price in cents',
        prd_active TINYINT(1) NOT NULL COMMENT '1 = still sold'
        """,
    "pos_lines": """
        pos_line_id INT NOT NULL PRIMARY KEY,
        pos_receipt_no VARCHAR(16) NOT NULL COMMENT 'receipt (one customer purchase); a receipt has one or more lines',
        site_id INT NOT NULL COMMENT 'site of the shop',
        product_id INT NOT NULL,
        member_id INT NULL COMMENT 'member who took the 10% member discount, if any',
        pos_sold_at DATETIME NOT NULL,
        pos_qty SMALLINT NOT NULL,
        pos_unit_price_cents INT NOT NULL,
        pos_discount_cents INT NOT NULL,
        pos_line_total_cents INT NOT NULL COMMENT 'qty * unit price - discount, in cents',
        pos_is_void TINYINT(1) NOT NULL COMMENT '1 = line voided at the till (not a sale)'
        """,
    "group_visits": """
        group_visit_id INT NOT NULL PRIMARY KEY,
        site_id INT NOT NULL,
        grp_org_name VARCHAR(80) NOT NULL COMMENT 'school or organisation that booked',
        grp_kind CHAR(3) NOT NULL COMMENT 'SCH = school class trip, TOR = tour operator, SEN = senior centre',
        grp_booked_on DATE NOT NULL,
        grp_visit_on DATE NOT NULL COMMENT 'date of the visit',
        grp_headcount SMALLINT NOT NULL COMMENT 'participants (students for schools), not counting chaperones',
        grp_chaperones SMALLINT NOT NULL COMMENT 'accompanying adults, admitted free',
        grp_tour_min SMALLINT NOT NULL COMMENT 'length of the guided tour in minutes',
        grp_fee_cents INT NOT NULL COMMENT 'fee charged for the group, in cents; 0 = fee waived',
        grp_status CHAR(1) NOT NULL COMMENT 'B = booked (upcoming), D = done (visited), X = cancelled'
        """,
}
TABLE_COMMENTS = {
    "sites": "Museum sites of the group",
    "exhibitions": "Galleries and exhibitions shown at each site",
    "members": "Membership households",
    "tickets": "Timed admission tickets, one row per person admitted per visit",
    "products": "Gift shop product catalogue",
    "pos_lines": "Point-of-sale lines (museum stores / gift shops)",
    "group_visits": "Group bookings: school trips, tour operators, senior centres",
}

SITES = [  # id, name, code, neighborhood, opened, closed days, base daily tickets
    (1, "Harbor Museum of Art", "HMA", "Old Harbor", dt.date(1987, 10, 3), "Mon", 34),
    (2, "Hall of Natural History", "NHH", "Parkside", dt.date(1962, 5, 12), "Mon", 48),
    (3, "Harbor Museum Riverside", "HMR", "Riverside", dt.date(2024, 5, 18), "Mon,Tue", 30),
]
CLOSED = {1: {0}, 2: {0}, 3: {0, 1}}
PRICES = {  # site -> type -> cents (before the 2024-07-01 increase)
    1: {"AD": 2200, "SR": 1800, "ST": 1500, "CH": 1000},
    2: {"AD": 2500, "SR": 2000, "ST": 1800, "CH": 1200},
    3: {"AD": 1800, "SR": 1400, "ST": 1200, "CH": 800},
}
EXHIBITIONS = [  # id, site, title, kind, opens, closes, surcharge cents, pull (share of tickets)
    (1, 1, "European Masters", "P", dt.date(1987, 10, 3), None, 0, 0),
    (2, 1, "Harbor Moderns", "P", dt.date(2005, 4, 1), None, 0, 0),
    (3, 1, "Impressions of the Coast", "T", dt.date(2023, 2, 10), dt.date(2023, 6, 25), 800, 0.42),
    (4, 1, "Ink and Water: East Asian Prints", "T", dt.date(2023, 9, 15), dt.date(2024, 1, 14), 600, 0.25),
    (5, 1, "Neon Decades", "T", dt.date(2024, 3, 1), dt.date(2024, 8, 18), 1000, 0.38),
    (6, 1, "The Weaver's Hand", "T", dt.date(2024, 10, 4), dt.date(2025, 2, 23), 700, 0.22),
    (7, 2, "Dinosaur Hall", "P", dt.date(1962, 5, 12), None, 0, 0),
    (8, 2, "Ocean Life", "P", dt.date(1991, 6, 1), None, 0, 0),
    (9, 2, "Wild Light", "T", dt.date(2023, 4, 1), dt.date(2023, 9, 4), 900, 0.40),
    (10, 2, "Mammoths of the Ice Age", "T", dt.date(2023, 10, 20), dt.date(2024, 4, 28), 1000, 0.45),
    (11, 2, "Venom: Nature's Chemists", "T", dt.date(2024, 6, 14), dt.date(2025, 1, 5), 800, 0.30),
    (12, 3, "River City Stories", "P", dt.date(2024, 5, 18), None, 0, 0),
    (13, 3, "Wild Light", "T", dt.date(2024, 5, 18), dt.date(2024, 10, 27), 900, 0.35),
    (14, 3, "Future Cities", "T", dt.date(2024, 11, 15), dt.date(2025, 3, 30), 600, 0.20),
]
TIER_FEE = {"I": 65, "D": 95, "F": 130, "P": 500}
TIER_W = {"I": 38, "D": 27, "F": 31, "P": 4}
PRODUCTS = [  # sku, name, category, price cents, active
    ("BK-1001", "European Masters Catalogue", "BOOK", 4500, 1),
    ("BK-1002", "Guide to the Harbor Museum", "BOOK", 1800, 1),
    ("BK-1003", "Dinosaurs of North America", "BOOK", 2400, 1),
    ("BK-1004", "Wild Light Exhibition Book", "BOOK", 3200, 1),
    ("BK-1005", "Mammoths: A Field Guide", "BOOK", 2200, 0),
    ("BK-1006", "Neon Decades Catalogue", "BOOK", 3900, 1),
    ("BK-1007", "Kids' Sketchbook", "BOOK", 1200, 1),
    ("PR-2001", "Harbor at Dusk Print", "PRINT", 3500, 1),
    ("PR-2002", "Impressions Poster", "PRINT", 2500, 0),
    ("PR-2003", "Botanical Print Set", "PRINT", 4200, 1),
    ("PR-2004", "Postcard Pack", "PRINT", 900, 1),
    ("PR-2005", "Ink and Water Scroll", "PRINT", 6500, 1),
    ("TY-3001", "Plush T. rex", "TOY", 2200, 1),
    ("TY-3002", "Fossil Dig Kit", "TOY", 1900, 1),
    ("TY-3003", "Glow Jellyfish", "TOY", 1400, 1),
    ("TY-3004", "Mammoth Plush", "TOY", 2400, 1),
    ("TY-3005", "Wooden Puzzle Map", "TOY", 2800, 1),
    ("TY-3006", "Crystal Growing Kit", "TOY", 1700, 1),
    ("AP-4001", "Museum Logo Tee", "APPAREL", 2800, 1),
    ("AP-4002", "Dino Kids Tee", "APPAREL", 2200, 1),
    ("AP-4003", "Canvas Tote", "APPAREL", 2000, 1),
    ("AP-4004", "Neon Socks", "APPAREL", 1200, 1),
    ("AP-4005", "Wool Scarf", "APPAREL", 5400, 1),
    ("HM-5001", "Ceramic Mug", "HOME", 1600, 1),
    ("HM-5002", "Wave Tea Towel", "HOME", 1400, 1),
    ("HM-5003", "Art Glass Vase", "HOME", 8800, 1),
    ("HM-5004", "Notebook Set", "HOME", 1500, 1),
    ("HM-5005", "Magnet", "HOME", 600, 1),
    ("HM-5006", "River City Candle", "HOME", 2600, 1),
    ("JW-6001", "Enamel Pin", "JEWELRY", 900, 1),
    ("JW-6002", "Silver Wave Earrings", "JEWELRY", 7200, 1),
    ("JW-6003", "Amber Pendant", "JEWELRY", 9500, 1),
    ("JW-6004", "Beaded Bracelet", "JEWELRY", 3400, 1),
]
# which products each shop stocks, by site (indices into PRODUCTS, with popularity weights)
SHOP_AFFINITY = {
    1: {"BK-1001": 3, "BK-1002": 5, "BK-1006": 3, "BK-1007": 2, "PR-2001": 5, "PR-2002": 3, "PR-2003": 3,
        "PR-2004": 9, "PR-2005": 2, "TY-3005": 2, "AP-4001": 4, "AP-4003": 6, "AP-4004": 3, "AP-4005": 2,
        "HM-5001": 6, "HM-5002": 4, "HM-5003": 1, "HM-5004": 5, "HM-5005": 8, "JW-6001": 6, "JW-6002": 2,
        "JW-6004": 2},
    2: {"BK-1002": 2, "BK-1003": 5, "BK-1004": 3, "BK-1005": 3, "BK-1007": 5, "PR-2004": 7, "TY-3001": 10,
        "TY-3002": 9, "TY-3003": 7, "TY-3004": 5, "TY-3005": 3, "TY-3006": 6, "AP-4001": 3, "AP-4002": 7,
        "AP-4003": 3, "HM-5001": 4, "HM-5005": 9, "JW-6001": 7, "JW-6003": 1},
    3: {"BK-1002": 3, "BK-1004": 4, "BK-1007": 2, "PR-2004": 7, "TY-3003": 5, "TY-3005": 3, "AP-4001": 3,
        "AP-4003": 5, "HM-5001": 5, "HM-5004": 3, "HM-5005": 7, "HM-5006": 6, "JW-6001": 5, "JW-6004": 3},
}
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer"]
SCHOOLS = ["Lincoln Elementary", "Bayview Middle School", "Westside High School", "St. Mary's Academy",
           "Riverside Elementary", "Oak Grove Elementary", "Harbor City Charter", "Eastgate Middle School",
           "Maple Street School", "Northshore High School", "Cedar Park Elementary", "Summit Prep",
           "Franklin Elementary", "Pine Hill Middle School", "Hillcrest Elementary", "Jefferson High School",
           "Greenfield Montessori", "Lakeside Elementary", "Brookside Middle School", "Central Magnet School",
           "Valley View Elementary", "Carver Academy", "Rosewood Elementary", "Madison Middle School"]
TOUR_OPS = ["Coastline Tours", "City Sights Travel", "Heritage Coach Co.", "Blue Anchor Tours"]
SENIOR = ["Parkside Senior Center", "Golden Years Club", "Riverside Active Living"]


def days(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def add_years(d: dt.date, n: int) -> dt.date:
    try:
        return d.replace(year=d.year + n)
    except ValueError:
        return d.replace(year=d.year + n, day=28)


def build():
    r = random.Random(SEED)
    sites = [(sid, name, code, hood, opened, closed) for sid, name, code, hood, opened, closed, _ in SITES]
    opened = {s[0]: s[4] for s in SITES}
    base = {s[0]: s[6] for s in SITES}
    exhibitions = [e[:7] for e in EXHIBITIONS]

    # ---- members
    members = []
    mid = 0
    for _ in range(3400):
        mid += 1
        tier = r.choices(list(TIER_W), weights=list(TIER_W.values()))[0]
        joined = dt.date(2016, 1, 1) + dt.timedelta(days=int(r.random() ** 0.8 * (EXTRACT_DAY - dt.date(2016, 1, 1)).days))
        home = r.choices([1, 2], weights=[45, 55])[0]
        if mid % 17 == 0:  # the Riverside opening drive (May-July 2024)
            joined, home = opened[3] + dt.timedelta(days=r.randint(0, 70)), 3
        elif joined >= opened[3] and r.random() < 0.3:
            home = 3
        years = 1
        while add_years(joined, years) <= EXTRACT_DAY and r.random() < 0.72:
            years += 1
        expires = add_years(joined, years) - dt.timedelta(days=1)
        first, last = r.choice(FIRST), r.choice(LAST)
        email = f"{first.lower()}.{last.lower().replace(chr(39), '')}{r.randint(1, 99)}@{r.choice(['mail.com', 'inbox.org', 'webpost.net'])}"
        deleted = None
        if r.random() < 0.035:
            deleted = dt.datetime.combine(joined + dt.timedelta(days=r.randint(1, 200)), dt.time(9, 0)) \
                + dt.timedelta(minutes=r.randint(0, 480))
            if deleted.date() > EXTRACT_DAY:
                deleted = dt.datetime(2024, 12, 20, 10, 0)
        members.append([mid, first, last, email, tier, home, joined, expires, TIER_FEE[tier],
                        int(r.random() < 0.4), deleted])
    for k in range(6):  # staff test records, soft-deleted
        mid += 1
        j = dt.date(2023, 3, 1) + dt.timedelta(days=97 * k)
        members.append([mid, "Test", f"Member{k + 1}", f"qa{k + 1}@museumgroup.test", r.choice("IDF"), 1 + k % 2,
                        j, add_years(j, 1) - dt.timedelta(days=1), 0, 0, dt.datetime.combine(j, dt.time(17, 30))])
    live_members = [m for m in members if m[10] is None]

    def member_on(day: dt.date, site: int):
        for _ in range(30):
            m = r.choice(live_members)
            if m[6] <= day <= m[7] and (m[5] == site or r.random() < 0.3):
                return m
        return None

    # ---- tickets
    tickets = []
    tid = 0
    show_of = {}
    for e in EXHIBITIONS:
        if e[3] == "T":
            show_of.setdefault(e[1], []).append(e)
    pos, receipts = [], 0
    prod_ids = {p[0]: i + 1 for i, p in enumerate(PRODUCTS)}
    prod_price = {p[0]: p[3] for p in PRODUCTS}
    pos_id = 0
    for day in days(FIRST_DAY, ADVANCE_END):
        wd = day.weekday()
        season = 1.0 + 0.28 * math.cos((day.timetuple().tm_yday - 200) / 365.25 * 2 * math.pi)
        holiday = 1.5 if (day.month == 12 and day.day >= 26) or (day.month == 1 and day.day <= 2) else 1.0
        for sid in (1, 2, 3):
            if day < opened[sid] or wd in CLOSED[sid]:
                continue
            if day.month == 12 and day.day == 25 or (day.month == 1 and day.day == 1):
                continue
            mean = base[sid] * season * holiday * (1.7 if wd >= 5 else 1.0) * (1.08 if day.year == 2024 else 1.0)
            if sid == 3 and day < opened[3] + dt.timedelta(days=21):
                mean *= 1.8  # opening weeks
            shows = [e for e in show_of.get(sid, []) if e[4] <= day <= e[5]]
            if shows:
                mean *= 1.0 + shows[0][7] * 0.6
            future = day > EXTRACT_DAY
            if future:
                mean *= 0.55 * max(0.05, 1 - (day - EXTRACT_DAY).days / 32)
            n = max(0, int(r.gauss(mean, mean ** 0.5) + 0.5))
            visitors_today = 0
            for _ in range(n):
                tid += 1
                slot = dt.datetime.combine(day, dt.time(10, 0)) + dt.timedelta(minutes=30 * r.choice(
                    [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13]))
                typ = r.choices(["AD", "SR", "ST", "CH", "MB"],
                                weights=[50, 11, 8, 24 if sid == 2 else 12, 14 if sid != 3 else 9])[0]
                member = None
                if typ == "MB":
                    member = member_on(day, sid)
                    if member is None:
                        typ = "AD"
                channel = "W" if future else r.choices("WBK", weights=[56, 34, 10])[0]
                if channel == "W":
                    sold = slot - dt.timedelta(days=r.choice([0, 0, 0, 1, 1, 2, 3, 5, 7, 10, 14, 21, 28]),
                                               minutes=r.randint(30, 900))
                else:
                    sold = slot - dt.timedelta(minutes=r.randint(2, 40))
                if sold.date() > EXTRACT_DAY:
                    sold = dt.datetime.combine(EXTRACT_DAY, dt.time(8, 0)) + dt.timedelta(minutes=r.randint(0, 600))
                exh = None
                if shows and r.random() < shows[0][7]:
                    exh = shows[0]
                comp = None
                if typ != "MB" and r.random() < 0.035:
                    comp = r.choices(["STAFF", "PRESS", "VIP", "PROMO"], weights=[40, 10, 15, 35])[0]
                if typ == "MB" or comp:
                    price = 0
                else:
                    price = PRICES[sid][typ] + (200 if day >= dt.date(2024, 7, 1) and typ in ("AD", "SR") else 0)
                    price += exh[6] if exh else 0
                status, refunded = "V", None
                if comp is None and typ != "MB" and channel == "W" and (slot - sold).days >= 2 and r.random() < 0.06:
                    status = "R"
                    refunded = (sold + dt.timedelta(days=r.randint(0, (slot - sold).days))).date()
                    if refunded > EXTRACT_DAY:
                        status, refunded = "V", None
                elif channel == "B" and r.random() < 0.008:
                    status = "X"
                tickets.append((tid, sid, exh[0] if exh else None, member[0] if member else None, typ, channel,
                                sold, slot, price, comp, status, refunded))
                if status == "V" and not future:
                    visitors_today += 1
            # vendor test transactions: a burst after each ticketing-system release
            if not future and day.day in (3, 17) and r.random() < 0.6:
                for _ in range(r.randint(2, 9)):
                    tid += 1
                    slot = dt.datetime.combine(day, dt.time(r.choice([9, 18, 19])))
                    typ = r.choice(["AD", "AD", "SR", "CH"])
                    tickets.append((tid, sid, None, None, typ, "T", slot - dt.timedelta(hours=r.randint(1, 30)), slot,
                                    r.choice([100, 2200, 2500, 99999, 0]), r.choice([None, None, "PROMO"]),
                                    r.choice("VVR"), None))
            # gift shop: receipts in proportion to the day's visitors
            if future:
                continue
            stock = SHOP_AFFINITY[sid]
            skus, weights = list(stock), list(stock.values())
            for _ in range(int(visitors_today * r.uniform(0.13, 0.19))):
                receipts += 1
                rno = f"{SITES[sid - 1][2]}-{receipts:06d}"
                when = dt.datetime.combine(day, dt.time(10, 30)) + dt.timedelta(minutes=r.randint(0, 400))
                mem = member_on(day, sid) if r.random() < 0.12 else None
                for sku in dict.fromkeys(r.choices(skus, weights=weights, k=r.choice([1, 1, 1, 2, 2, 3, 4]))):
                    if PRODUCTS[prod_ids[sku] - 1][4] == 0 and day >= dt.date(2024, 6, 1):
                        continue  # discontinued
                    pos_id += 1
                    qty = r.choices([1, 2, 3, 4], weights=[80, 13, 5, 2])[0]
                    unit = prod_price[sku] - (200 if day < dt.date(2024, 1, 1) and prod_price[sku] > 1500 else 0)
                    disc = round(qty * unit * 0.10) if mem else 0
                    void = int(r.random() < 0.015)
                    pos.append((pos_id, rno, sid, prod_ids[sku], mem[0] if mem else None, when, qty, unit, disc,
                                qty * unit - disc, void))

    # ---- products
    products = [(i + 1, sku, name, cat, price, act) for i, (sku, name, cat, price, act) in enumerate(PRODUCTS)]

    # ---- group visits
    groups = []
    gid = 0
    for day in days(FIRST_DAY, dt.date(2025, 3, 31)):
        wd = day.weekday()
        for sid in (1, 2, 3):
            if day < opened[sid] or wd in CLOSED[sid] or wd >= 5:
                continue
            school_term = day.month not in (7, 8) and not (day.month == 6 and day.day > 20) \
                and not (day.month == 12 and day.day > 20)
            rate = {1: 0.45, 2: 0.85, 3: 0.5}[sid] * (1.0 if school_term else 0.0)
            kinds = []
            if r.random() < rate:
                kinds.append("SCH")
                if r.random() < 0.35:
                    kinds.append("SCH")
            if r.random() < 0.06:
                kinds.append("TOR")
            if r.random() < 0.04:
                kinds.append("SEN")
            for kind in kinds:
                gid += 1
                if kind == "SCH":
                    org = r.choice(SCHOOLS)
                    head = r.randint(18, 95)
                    chap = max(2, head // r.randint(7, 11))
                    fee = 0 if r.random() < 0.3 else head * 400
                elif kind == "TOR":
                    org = r.choice(TOUR_OPS)
                    head = r.randint(12, 48)
                    chap = r.randint(1, 2)
                    fee = head * 1600
                else:
                    org = r.choice(SENIOR)
                    head = r.randint(8, 30)
                    chap = r.randint(1, 3)
                    fee = head * 900
                booked = day - dt.timedelta(days=r.randint(7, 120))
                if booked > EXTRACT_DAY:
                    continue
                if day > EXTRACT_DAY:
                    status = "X" if r.random() < 0.04 else "B"
                else:
                    status = "X" if r.random() < 0.08 else "D"
                groups.append((gid, sid, org, kind, booked, day, head, chap, r.choice([45, 60, 60, 90]), fee, status))

    members = [tuple(m) for m in members]
    return {"sites": sites, "exhibitions": exhibitions, "members": members, "tickets": tickets,
            "products": products, "pos_lines": pos, "group_visits": groups}


def main() -> None:
    _common.ensure_venv()
    import pymysql

    tables = build()
    con = pymysql.connect(**_common.MYSQL_ADMIN, charset="utf8mb4", autocommit=True)
    try:
        cur = con.cursor()
        cur.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        cur.execute(f"CREATE DATABASE {DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
        cur.execute(f"USE {DATABASE}")
        for table, columns in DDL.items():
            comment = TABLE_COMMENTS[table].replace("'", "''")
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB COMMENT='{comment}'")
        con.autocommit(False)
        for table, rows in tables.items():
            marks = ", ".join(["%s"] * len(rows[0]))
            for i in range(0, len(rows), 5000):
                cur.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[i:i + 5000])
        con.commit()
        con.autocommit(True)
        for host in ("%", "localhost"):
            cur.execute(f"CREATE USER IF NOT EXISTS '{USER}'@'{host}' IDENTIFIED BY '{USER}'")
            cur.execute(f"ALTER USER '{USER}'@'{host}' IDENTIFIED BY '{USER}'")
            cur.execute(f"GRANT SELECT ON {DATABASE}.* TO '{USER}'@'{host}'")
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {table}")
            counts[f"{DATABASE}.{table}"] = cur.fetchone()[0]
    finally:
        con.close()
    print(f"loaded the synthetic museum group into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()

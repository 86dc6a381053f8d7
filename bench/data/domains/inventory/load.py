#!/usr/bin/env python3
"""A synthetic distribution company's warehouse management system (2022-2024) on PostgreSQL, schema `wms`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_inventory if missing, drops and rebuilds schema "wms", loads eight tables
generated deterministically with random.Random(17), and creates (or resets) the read-only login
role inventory_reader / inventory_reader. Idempotent: the same rows on every run.

Naming: short snake_case table names, some plural (sites, vendors) and most singular; only some
tables prefix their columns with a two-letter code (sku: sk_, vendors: vd_, bin_loc: bl_, rcpt: rc_);
the others (sites, stock, pick_ticket, inv_adj) do not. Primary keys declared, foreign keys NOT.
Quantities are in eaches except receipts, which are in cases (sku.sk_case_qty converts).
Money: sku.sk_unit_cost_cents and pick_ticket.unit_price_cents are integer cents per each;
rcpt.rc_case_cost is US dollars per case.

  wms.sites        6 distribution centres (Memphis closed 2023-09-30, Columbus opened 2023-04-03)
  wms.bin_loc      storage locations ("bins") per site, zone code D/P/R/Q
  wms.sku          products: code, description, category, eaches per case, unit cost (cents), status
  wms.vendors      suppliers (ISO country code, promised lead time)
  wms.stock        month-end stock-on-hand snapshots per site and SKU, in eaches
  wms.rcpt         inbound receipt lines (purchase-order lines), in cases; NULL received date = in transit
  wms.pick_ticket  outbound ORDER LINES (one row per line; an order is an order_no); status O/P/S/X;
                   ship_to_code ZZTEST = QA test orders
  wms.inv_adj      inventory adjustments: cycle-count variances, damage, shrink, found, customer returns,
                   return-to-vendor; voided_at set = reversed / entered in error
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_inventory", "wms", "inventory_reader"
URL = "postgresql://inventory_reader:inventory_reader@127.0.0.1:5432/dev_inventory"
SEED = 17
FIRST_DAY, EXTRACT_DAY = dt.date(2022, 1, 3), dt.date(2024, 12, 31)

DDL = [
    """CREATE TABLE wms.sites (
        site_id smallint PRIMARY KEY,
        site_code char(3) NOT NULL,
        site_name varchar(40) NOT NULL,
        city varchar(30) NOT NULL,
        state char(2) NOT NULL,
        opened_on date NOT NULL,
        closed_on date,
        sq_ft integer NOT NULL)""",
    """CREATE TABLE wms.bin_loc (
        loc_id integer PRIMARY KEY,
        site_id smallint NOT NULL,
        bl_label varchar(16) NOT NULL,
        bl_zone char(1) NOT NULL,
        bl_aisle smallint,
        bl_max_cases smallint)""",
    """CREATE TABLE wms.vendors (
        vendor_id integer PRIMARY KEY,
        vd_name varchar(60) NOT NULL,
        vd_country char(2) NOT NULL,
        vd_lead_days smallint NOT NULL,
        vd_active boolean NOT NULL)""",
    """CREATE TABLE wms.sku (
        sku_id integer PRIMARY KEY,
        sk_code varchar(12) NOT NULL UNIQUE,
        sk_desc varchar(80) NOT NULL,
        sk_category varchar(30) NOT NULL,
        vendor_id integer NOT NULL,
        sk_case_qty smallint NOT NULL,
        sk_unit_cost_cents integer NOT NULL,
        sk_status char(1) NOT NULL,
        sk_created_on date NOT NULL,
        sk_disc_on date)""",
    """CREATE TABLE wms.stock (
        snap_date date NOT NULL,
        site_id smallint NOT NULL,
        sku_id integer NOT NULL,
        qty_on_hand integer NOT NULL,
        qty_allocated integer NOT NULL,
        PRIMARY KEY (snap_date, site_id, sku_id))""",
    """CREATE TABLE wms.rcpt (
        rcpt_id integer PRIMARY KEY,
        rc_po_no varchar(12) NOT NULL,
        vendor_id integer NOT NULL,
        site_id smallint NOT NULL,
        sku_id integer NOT NULL,
        rc_qty_cases integer NOT NULL,
        rc_case_cost numeric(10, 2) NOT NULL,
        rc_ordered_on date NOT NULL,
        rc_expected_on date NOT NULL,
        rc_received_on date,
        loc_id integer)""",
    """CREATE TABLE wms.pick_ticket (
        pick_id integer PRIMARY KEY,
        order_no varchar(12) NOT NULL,
        line_no smallint NOT NULL,
        site_id smallint NOT NULL,
        ship_to_code varchar(10) NOT NULL,
        ship_to_name varchar(60) NOT NULL,
        ship_to_city varchar(30) NOT NULL,
        sku_id integer NOT NULL,
        qty_ordered integer NOT NULL,
        qty_picked integer,
        unit_price_cents integer NOT NULL,
        order_date date NOT NULL,
        shipped_at timestamp,
        status char(1) NOT NULL)""",
    """CREATE TABLE wms.inv_adj (
        adj_id integer PRIMARY KEY,
        site_id smallint NOT NULL,
        loc_id integer,
        sku_id integer NOT NULL,
        adj_at timestamp NOT NULL,
        reason_cd varchar(2) NOT NULL,
        qty_delta integer NOT NULL,
        ref_order_no varchar(12),
        user_id varchar(12) NOT NULL,
        voided_at timestamp)""",
]
TABLE_COMMENTS = {
    "sites": "Distribution centres (warehouses) we operate",
    "bin_loc": "Storage locations (bins) inside each site",
    "vendors": "Suppliers we buy from",
    "sku": "Products (SKUs) we stock and sell",
    "stock": "Stock on hand: one snapshot per site and SKU at each month end (last day of the month)",
    "rcpt": "Inbound receipts: one row per purchase-order line, quantities in cases",
    "pick_ticket": "Outbound customer orders, one row per order LINE; order_no groups the lines of one order",
    "inv_adj": "Inventory adjustments: cycle-count variances, damage, shrink, customer returns, return-to-vendor",
}
COLUMN_COMMENTS = {
    ("sites", "closed_on"): "date the site stopped operating; NULL = still open",
    ("bin_loc", "bl_zone"): "D = dock / staging, P = pick face, R = reserve (pallet racking), Q = quarantine / damaged hold",
    ("bin_loc", "bl_max_cases"): "capacity in cases; NULL for dock and quarantine locations",
    ("vendors", "vd_country"): "ISO 3166 two-letter country code",
    ("vendors", "vd_lead_days"): "promised lead time in days from PO to delivery",
    ("sku", "sk_code"): "the SKU code people use, e.g. BV-10042 (two-letter category prefix)",
    ("sku", "sk_case_qty"): "eaches (units) per case: receipts are counted in cases, everything else in eaches",
    ("sku", "sk_unit_cost_cents"): "standard cost of ONE each, in US cents",
    ("sku", "sk_status"): "A = active, D = discontinued (no longer sold; may still hold stock), H = on hold (quality)",
    ("sku", "sk_disc_on"): "date the SKU was discontinued; NULL = not discontinued",
    ("sku", "vendor_id"): "primary supplier",
    ("stock", "snap_date"): "month-end date of the snapshot (the last is 2024-12-31)",
    ("stock", "qty_on_hand"): "eaches physically in the site at the snapshot",
    ("stock", "qty_allocated"): "eaches of qty_on_hand already reserved for open orders",
    ("rcpt", "rc_qty_cases"): "quantity in CASES (multiply by sku.sk_case_qty for eaches)",
    ("rcpt", "rc_case_cost"): "purchase cost per case in US dollars",
    ("rcpt", "rc_expected_on"): "delivery date promised by the vendor",
    ("rcpt", "rc_received_on"): "date received at the dock; NULL = not received yet (in transit)",
    ("rcpt", "loc_id"): "bin the goods were put away to; NULL until received",
    ("pick_ticket", "order_no"): "customer order number; one order has one or more lines",
    ("pick_ticket", "ship_to_code"): "customer account code; ZZTEST = internal QA test orders (not real, exclude from reporting)",
    ("pick_ticket", "qty_ordered"): "eaches ordered",
    ("pick_ticket", "qty_picked"): "eaches actually picked and shipped; NULL until picked, can be less than ordered (short pick)",
    ("pick_ticket", "unit_price_cents"): "selling price of ONE each, in US cents",
    ("pick_ticket", "shipped_at"): "when the line left the dock; NULL = not shipped (yet)",
    ("pick_ticket", "status"): "O = open (released, not picked), P = picked (awaiting truck), S = shipped, X = cancelled",
    ("inv_adj", "reason_cd"): ("CC = cycle count variance (counted minus system; 0 = count matched), DM = damaged / "
                               "written off, SH = shrink (missing, not from a count), FD = found, RT = customer return "
                               "put back to stock, RV = returned to vendor"),
    ("inv_adj", "qty_delta"): "signed change in eaches (+ adds stock, - removes stock)",
    ("inv_adj", "ref_order_no"): "for RT (customer returns): the order_no the goods were shipped on",
    ("inv_adj", "voided_at"): "set when the adjustment was reversed / entered in error; voided rows did not happen",
}

SITES = [  # id, code, name, city, state, opened, closed, sq ft, volume weight, short-pick rate, ship lag, shrink
    (1, "DAL", "Dallas DC", "Dallas", "TX", dt.date(2015, 3, 2), None, 420000, 1.55, 0.035, 1.0, 1.0),
    (2, "PHX", "Phoenix DC", "Phoenix", "AZ", dt.date(2017, 8, 7), None, 260000, 0.95, 0.05, 1.3, 2.6),
    (3, "ATL", "Atlanta DC", "Atlanta", "GA", dt.date(2012, 5, 14), None, 310000, 1.15, 0.03, 0.9, 1.0),
    (4, "MEM", "Memphis DC", "Memphis", "TN", dt.date(2009, 10, 1), dt.date(2023, 9, 30), 240000, 0.8, 0.06, 1.5, 1.3),
    (5, "COL", "Columbus DC", "Columbus", "OH", dt.date(2023, 4, 3), None, 300000, 0.9, 0.045, 1.1, 0.9),
    (6, "REN", "Reno DC", "Reno", "NV", dt.date(2019, 2, 4), None, 180000, 0.6, 0.04, 1.2, 1.1),
]
CITIES = {1: ["Dallas", "Fort Worth", "Plano", "Arlington", "Waco", "Tyler", "Shreveport"],
          2: ["Phoenix", "Mesa", "Tucson", "Scottsdale", "Flagstaff", "Albuquerque"],
          3: ["Atlanta", "Marietta", "Macon", "Savannah", "Chattanooga", "Birmingham"],
          4: ["Memphis", "Jackson", "Little Rock", "Nashville", "Tupelo"],
          5: ["Columbus", "Dayton", "Cincinnati", "Cleveland", "Toledo", "Akron"],
          6: ["Reno", "Sparks", "Sacramento", "Carson City", "Boise"]}

# category: prefix, count, case sizes, unit cost cents range, markup, return rate, nouns
CATEGORIES = {
    "Beverages": ("BV", 150, [12, 24, 24, 24], (35, 260), 1.30, 0.004,
                  ["Sparkling Water", "Cola", "Iced Tea", "Cold Brew Coffee", "Orange Juice", "Energy Drink",
                   "Lemonade", "Coconut Water", "Ginger Ale", "Sports Drink"]),
    "Snacks": ("SN", 170, [12, 24, 36, 48], (45, 420), 1.35, 0.005,
               ["Tortilla Chips", "Pretzels", "Trail Mix", "Granola Bar", "Popcorn", "Crackers", "Beef Jerky",
                "Rice Cakes", "Peanuts", "Potato Chips"]),
    "Paper Goods": ("PG", 80, [4, 6, 8, 12], (180, 1600), 1.25, 0.008,
                    ["Paper Towels", "Bath Tissue", "Napkins", "Paper Plates", "Facial Tissue", "Foam Cups"]),
    "Cleaning": ("CL", 110, [6, 8, 12], (140, 950), 1.32, 0.010,
                 ["All-Purpose Cleaner", "Dish Soap", "Laundry Detergent", "Glass Cleaner", "Bleach",
                  "Disinfecting Wipes", "Sponges", "Trash Bags"]),
    "Personal Care": ("PC", 140, [12, 24, 36], (90, 1250), 1.42, 0.012,
                      ["Shampoo", "Body Wash", "Toothpaste", "Deodorant", "Hand Soap", "Lotion", "Razor Pack",
                       "Sunscreen", "Lip Balm"]),
    "Small Appliances": ("SA", 70, [1, 1, 2, 4], (1400, 9500), 1.28, 0.065,
                         ["Toaster", "Blender", "Coffee Maker", "Electric Kettle", "Hand Mixer", "Air Fryer",
                          "Rice Cooker", "Space Heater"]),
    "Kitchenware": ("KW", 100, [4, 6, 12], (280, 3200), 1.45, 0.022,
                    ["Skillet", "Mixing Bowl Set", "Chef Knife", "Cutting Board", "Storage Containers",
                     "Measuring Cups", "Baking Sheet", "Spatula Set"]),
    "Pet Supplies": ("PT", 90, [4, 6, 12], (190, 4200), 1.33, 0.009,
                     ["Dry Dog Food", "Cat Litter", "Wet Cat Food", "Dog Treats", "Chew Toy", "Pet Shampoo",
                      "Bird Seed"]),
}
BRANDS = ["Brightfield", "Northstar", "Cascade", "Harbor", "Summit", "Lakeside", "Prairie", "Redwood", "Maple Lane",
          "Bluewater", "Silver Oak", "Golden Gate", "Ironwood", "Sunny Acres", "Everpure", "Kitchen Pro"]
SIZES = ["6oz", "8oz", "12oz", "16oz", "20oz", "32oz", "1L", "2L", "Small", "Medium", "Large", "Family Size",
         "Value Pack", "2-Pack", "4-Pack", "Travel"]
VENDORS = [  # name, country, lead days, categories, late tendency (mean days late), active
    ("Lone Star Beverage Co", "US", 7, ["Beverages"], 0.6, True),
    ("Cascadia Bottling", "US", 10, ["Beverages"], 1.0, True),
    ("Aguas del Norte SA", "MX", 14, ["Beverages"], 2.0, True),
    ("Great Plains Snack Foods", "US", 8, ["Snacks"], 0.8, True),
    ("Crunchworks Inc", "US", 9, ["Snacks"], 1.2, True),
    ("Maple Leaf Provisions", "CA", 12, ["Snacks", "Beverages"], 1.5, True),
    ("Heartland Paper Mills", "US", 10, ["Paper Goods"], 0.7, True),
    ("Softline Tissue Ltd", "CA", 14, ["Paper Goods"], 1.8, True),
    ("Sparkle Chemical Corp", "US", 9, ["Cleaning"], 1.0, True),
    ("Pure Home Products", "US", 8, ["Cleaning", "Personal Care"], 0.9, True),
    ("Química Limpia SA de CV", "MX", 16, ["Cleaning"], 2.4, True),
    ("Daybreak Personal Care", "US", 9, ["Personal Care"], 0.8, True),
    ("Rhein Kosmetik GmbH", "DE", 35, ["Personal Care"], 2.0, True),
    ("Vellora Beauty Labs", "IN", 40, ["Personal Care"], 3.5, True),
    ("Shenzhen Brightway Electric", "CN", 45, ["Small Appliances"], 3.0, True),
    ("Pacific Rim Trading Co", "CN", 42, ["Small Appliances", "Kitchenware"], 9.5, True),
    ("Ningbo Homeware Mfg", "CN", 48, ["Kitchenware"], 4.0, True),
    ("Saigon Household Goods", "VN", 44, ["Kitchenware", "Small Appliances"], 3.2, True),
    ("Heritage Cookware Co", "US", 12, ["Kitchenware"], 1.1, True),
    ("Buddy & Paws Supply", "US", 9, ["Pet Supplies"], 1.0, True),
    ("Whisker Naturals", "US", 11, ["Pet Supplies"], 1.4, True),
    ("Guangzhou Pet Products", "CN", 46, ["Pet Supplies"], 3.8, True),
    ("Midwest Grocery Brokers", "US", 7, ["Snacks", "Beverages", "Cleaning"], 0.9, False),
]
STORE_WORDS = ["Market", "Grocers", "Foods", "Pantry", "Mart", "Provisions", "General Store", "Supermarket",
               "Corner Store", "Fresh Market", "Co-op", "Convenience"]
STORE_NAMES = ["Sunrise", "Riverbend", "Oak Hill", "Pioneer", "Canyon", "Magnolia", "Bluebonnet", "Desert Rose",
               "Peachtree", "Buckeye", "Sierra", "Silver State", "Cedar", "Liberty", "Main Street", "Hilltop",
               "Willow Creek", "Red River", "Copper", "Lakeview", "Twin Pines", "Frontier", "Eastside", "Westgate",
               "Parkway", "Crossroads", "Valley", "Summit", "Prairie", "Heritage", "Mesa", "Cotton"]
REASON_USERS = ["jmorales", "tnguyen", "kpatel", "rsmith", "abrown", "lchen", "dwilliams", "mgarcia", "sjohnson",
                "pkim", "bdavis", "ewright", "hlopez", "cmartin", "ntaylor", "oanderson"]


def month_ends(a: dt.date, b: dt.date):
    y, m = a.year, a.month
    while True:
        nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
        end = nxt - dt.timedelta(days=1)
        if end > b:
            return
        yield end
        y, m = nxt.year, nxt.month


def site_open(site, day):
    return site[5] <= day and (site[6] is None or day <= site[6])


def build():
    r = random.Random(SEED)
    sites = [s[:8] for s in SITES]
    site_by_id = {s[0]: s for s in SITES}

    # bins
    bins, bins_by_site = [], {}
    loc_id = 0
    for s in SITES:
        sid = s[0]
        n_aisles = max(8, s[7] // 14000)
        bins_by_site[sid] = {"P": [], "R": [], "D": [], "Q": []}
        for d in range(1, 9):
            loc_id += 1
            bins.append((loc_id, sid, f"DOCK-{d:02d}", "D", None, None))
            bins_by_site[sid]["D"].append(loc_id)
        for q in range(1, 5):
            loc_id += 1
            bins.append((loc_id, sid, f"QH-{q:02d}", "Q", None, None))
            bins_by_site[sid]["Q"].append(loc_id)
        for aisle in range(1, n_aisles + 1):
            zone = "P" if aisle <= n_aisles * 0.4 else "R"
            for bay in range(1, 13):
                for level in ("A", "B", "C"):
                    loc_id += 1
                    cap = r.choice([20, 30, 40]) if zone == "P" else r.choice([60, 80, 120])
                    bins.append((loc_id, sid, f"{zone}-{aisle:02d}-{bay:02d}-{level}", zone, aisle, cap))
                    bins_by_site[sid][zone].append(loc_id)

    vendors = [(i + 1, v[0], v[1], v[2], v[5]) for i, v in enumerate(VENDORS)]
    vend_info = {i + 1: dict(cats=v[3], late=v[4], lead=v[2], active=v[5]) for i, v in enumerate(VENDORS)}
    vend_by_cat = {c: [vid for vid, info in vend_info.items() if c in info["cats"]] for c in CATEGORIES}

    # SKUs
    skus, sku_info = [], {}
    sku_id = 0
    for cat, (prefix, count, cases, (clo, chi), markup, ret, nouns) in CATEGORIES.items():
        used = set()
        for _ in range(count):
            sku_id += 1
            while True:
                num = r.randint(10001, 29999)
                if num not in used:
                    used.add(num)
                    break
            code = f"{prefix}-{num}"
            desc = f"{r.choice(BRANDS)} {r.choice(nouns)} {r.choice(SIZES)}"
            vid = r.choice(vend_by_cat[cat])
            if not vend_info[vid]["active"] and r.random() < 0.5:
                vid = r.choice([v for v in vend_by_cat[cat] if vend_info[v]["active"]])
            case_qty = r.choice(cases)
            cost = int(math.exp(r.uniform(math.log(clo), math.log(chi))))
            u = r.random()
            if u < 0.17:
                created = dt.date(2022, 2, 1) + dt.timedelta(days=r.randint(0, 1000))
            else:
                created = dt.date(2014, 1, 1) + dt.timedelta(days=r.randint(0, 2800))
            disc = None
            status = "A"
            if not vend_info[vid]["active"]:
                disc = dt.date(2023, 1, 15) + dt.timedelta(days=r.randint(0, 120))
            elif r.random() < 0.11:
                disc = max(created + dt.timedelta(days=120), dt.date(2022, 4, 1) + dt.timedelta(days=r.randint(0, 950)))
                if disc > EXTRACT_DAY - dt.timedelta(days=10):
                    disc = None
            if disc:
                status = "D"
            elif r.random() < 0.012:
                status = "H"
            pop = r.paretovariate(1.1)
            if r.random() < 0.06:
                pop *= 0.02  # slow movers
            skus.append((sku_id, code, desc, cat, vid, case_qty, cost, status, created, disc))
            sku_info[sku_id] = dict(code=code, cat=cat, vid=vid, case=case_qty, cost=cost, markup=markup, ret=ret,
                                    created=created, disc=disc, status=status, pop=pop)
    # a few SKUs people ask about by code get a stable, recognisable profile
    stocked = {}
    for s in SITES:
        p = 0.97 if s[0] == 1 else 0.78
        stocked[s[0]] = [k for k in sku_info if r.random() < p]

    # customers (ship-to accounts), each served by one site
    customers = {}  # site -> list of (code, name, city, weight)
    all_names = set()
    cust_no = 0
    for s in SITES:
        sid = s[0]
        n = {1: 70, 2: 45, 3: 55, 4: 35, 5: 45, 6: 30}[sid]
        lst = []
        for _ in range(n):
            cust_no += 1
            while True:
                name = f"{r.choice(STORE_NAMES)} {r.choice(STORE_WORDS)}"
                if name not in all_names and not name.startswith("Valley Fresh"):
                    all_names.add(name)
                    break
            city = r.choice(CITIES[sid])
            lst.append([f"C{cust_no:05d}", name, city, r.paretovariate(1.4)])
        customers[sid] = lst
    # a name shared by two unrelated accounts
        customers[1][5][1], customers[1][5][2] = "Harvest Market", "Dallas"
    customers[3][7][1], customers[3][7][2] = "Harvest Market", "Savannah"
    customers[1][5][3] = max(customers[1][5][3], 4.0)
    customers[3][7][3] = max(customers[3][7][3], 4.0)
    # Memphis customers move to Columbus (and Atlanta) when Memphis closes
    mem_moved = {}
    for c in customers[4]:
        mem_moved[c[0]] = 5 if r.random() < 0.7 else 3

    # outbound order lines
    picks = []
    pick_id = 0
    order_seq = 100000
    shipped_lines = []  # for returns: (site, order_no, sku, qty_picked, shipped_at)
    demand = {}  # (site, sku, (year, month)) -> eaches shipped
    wk_demand = {}  # (site, sku, monday) -> eaches shipped
    day = FIRST_DAY
    sku_lists = {}
    while day <= EXTRACT_DAY:
        wd = day.weekday()
        if wd < 6:
            season = 1.0 + 0.22 * math.cos((day.timetuple().tm_yday - 340) / 365.25 * 2 * math.pi)
            growth = 1.0 + 0.07 * (day - FIRST_DAY).days / 365.25
            for s in SITES:
                sid = s[0]
                if not site_open(s, day):
                    continue
                ramp = 1.0
                if sid == 5:
                    ramp = min(1.0, 0.35 + (day - s[5]).days / 200)
                mean = 14.5 * s[8] * season * growth * ramp * (0.3 if wd == 5 else 1.0)
                n_orders = max(0, int(r.gauss(mean, math.sqrt(mean)) + 0.5))
                pool = list(customers[sid])
                if sid in (3, 5) and day > dt.date(2023, 9, 30):
                    pool += [c for c in customers[4] if mem_moved[c[0]] == sid]
                if sid == 1 and wd == 2 and r.random() < 0.6:
                    n_orders += 1  # QA test order
                    test_today = True
                else:
                    test_today = False
                key = (sid, day.year, day.month)
                if key not in sku_lists:
                    ms = [k for k in stocked[sid] if sku_info[k]["created"] <= day
                          and (sku_info[k]["disc"] is None or sku_info[k]["disc"] > day)
                          and sku_info[k]["status"] != "H"]
                    cum, t = [], 0.0
                    for k in ms:
                        t += sku_info[k]["pop"]
                        cum.append(t)
                    sku_lists[key] = (ms, cum)
                ms, cum = sku_lists[key]
                weights = [c[3] for c in pool]
                for o in range(n_orders):
                    is_test = test_today and o == n_orders - 1
                    if is_test:
                        code, name, city = "ZZTEST", "QA TEST ACCOUNT - DO NOT SHIP", "Dallas"
                    else:
                        code, name, city, _ = r.choices(pool, weights=weights)[0]
                    order_seq += r.randint(1, 3)
                    order_no = f"SO{order_seq}"
                    n_lines = min(len(ms), r.choices([1, 2, 3, 4, 5, 6, 8, 10], weights=[22, 20, 17, 13, 10, 8, 6, 4])[0])
                    lines = set()
                    while len(lines) < n_lines:
                        lines.add(r.choices(ms, cum_weights=cum)[0])
                    age = (EXTRACT_DAY - day).days
                    cancelled = r.random() < 0.018
                    lag_days = max(0, int(r.expovariate(1 / s[10]) + (1 if wd == 5 else 0)))
                    ship_day = day + dt.timedelta(days=lag_days)
                    if ship_day.weekday() == 6:
                        ship_day += dt.timedelta(days=1)
                    ship_ts = dt.datetime.combine(ship_day, dt.time(6, 0)) + dt.timedelta(minutes=r.randint(0, 780))
                    if cancelled:
                        status = "X"
                    elif ship_day > EXTRACT_DAY or (age <= 1 and r.random() < 0.5):
                        status = "P" if r.random() < 0.45 and age >= 1 else "O"
                    else:
                        status = "S"
                    disc_pct = r.uniform(0.0, 0.08)
                    for ln, k in enumerate(sorted(lines), start=1):
                        info = sku_info[k]
                        cs = info["case"]
                        if cs == 1 or r.random() < 0.8:
                            q = cs * max(1, int(r.expovariate(1 / (2.5 if cs > 1 else 3.0)) + 1))
                        else:
                            q = r.randint(1, cs * 2)
                        if is_test:
                            q = r.choice([1, 2, 5])
                        price = int(round(info["cost"] * info["markup"] * (1 + 0.035 * (day - FIRST_DAY).days / 365.25)
                                          * (1 - disc_pct)))
                        if status in ("X", "O"):
                            picked = None
                        else:
                            picked = q
                            if r.random() < s[9]:
                                picked = r.randint(0, q - 1) if q > 1 else 0
                        shipped = ship_ts if status == "S" else None
                        pick_id += 1
                        picks.append((pick_id, order_no, ln, sid, code, name, city, k, q, picked, price, day,
                                      shipped, status))
                        if status == "S" and picked:
                            if not is_test:
                                shipped_lines.append((sid, order_no, k, picked, ship_ts))
                            me = month_key(day)
                            demand[(sid, k, me)] = demand.get((sid, k, me), 0) + picked
                            wk = day - dt.timedelta(days=day.weekday())
                            wk_demand[(sid, k, wk)] = wk_demand.get((sid, k, wk), 0) + picked
        day += dt.timedelta(days=1)

    # inbound receipts: weekly POs per site and vendor, replenishing what was shipped (in whole cases)
    rcpts = []
    rcpt_id = 0
    po_seq = 40000
    backlog = {}
    week = FIRST_DAY  # a Monday
    while week <= EXTRACT_DAY:
        prev = week - dt.timedelta(days=7)
        for s in SITES:
            sid = s[0]
            if not site_open(s, week) or (s[6] is not None and week > s[6] - dt.timedelta(days=30)):
                continue
            by_vendor = {}
            for k in stocked[sid]:
                info = sku_info[k]
                b = backlog.get((sid, k), 0) + wk_demand.get((sid, k, prev), 0)
                if week == FIRST_DAY or (sid == 5 and week < s[5] + dt.timedelta(days=7)):
                    b += int(info["case"] * min(40, 1 + 2 * info["pop"]))  # opening stock top-up
                backlog[(sid, k)] = b
                if info["created"] > week or (info["disc"] and info["disc"] < week + dt.timedelta(days=45)):
                    continue
                if b >= info["case"] * (4 if info["case"] > 2 else 8):
                    by_vendor.setdefault(info["vid"], []).append(k)
            for vid, ks in sorted(by_vendor.items()):
                vi = vend_info[vid]
                po_seq += 1
                ordered = week + dt.timedelta(days=r.randint(0, 4))
                expected = ordered + dt.timedelta(days=vi["lead"])
                late = r.gauss(vi["late"], 1.2 + vi["late"] * 0.6)
                delay = int(round(late)) if r.random() < 0.35 + min(0.5, vi["late"] / 12) else r.choice([-2, -1, 0, 0, 0])
                received = expected + dt.timedelta(days=delay)
                if received > EXTRACT_DAY:
                    received = None
                for k in ks:
                    info = sku_info[k]
                    cases = max(1, int(backlog[(sid, k)] * r.uniform(0.95, 1.25) / info["case"] + 0.5))
                    backlog[(sid, k)] = 0
                    years = (ordered - FIRST_DAY).days / 365.25
                    case_cost = round(info["cost"] * info["case"] * (1 + 0.03 * years) * r.uniform(0.97, 1.03) / 100, 2)
                    rcpt_id += 1
                    loc = r.choice(bins_by_site[sid]["R"]) if received else None
                    rcpts.append((rcpt_id, f"PO{po_seq}", vid, sid, k, cases, case_cost, ordered, expected,
                                  received, loc))
        week += dt.timedelta(days=7)

    # adjustments
    adjs = []
    adj_id = 0

    def add_adj(sid, loc, k, ts, code, qty, ref=None):
        nonlocal adj_id
        adj_id += 1
        voided = None
        user = r.choice(REASON_USERS)
        adjs.append([adj_id, sid, loc, k, ts, code, qty, ref, user, voided])
        if r.random() < 0.025:  # keyed twice: the second is voided
            adj_id += 1
            adjs.append([adj_id, sid, loc, k, ts + dt.timedelta(minutes=r.randint(1, 30)), code, qty, ref, user,
                         ts + dt.timedelta(hours=r.randint(2, 60))])

    day = FIRST_DAY
    while day <= EXTRACT_DAY:
        if day.weekday() < 5:
            for s in SITES:
                sid = s[0]
                if not site_open(s, day):
                    continue
                shrink = s[11]
                active = [k for k in stocked[sid] if sku_info[k]["created"] <= day]
                for _ in range(r.randint(8, 16)):
                    k = r.choice(active)
                    loc = r.choice(bins_by_site[sid]["P"] + bins_by_site[sid]["R"])
                    ts = dt.datetime.combine(day, dt.time(7, 0)) + dt.timedelta(minutes=r.randint(0, 540))
                    u = r.random()
                    if u < 0.68:
                        q = 0
                    elif u < 0.68 + 0.19 * shrink / (1 + 0.19 * (shrink - 1)):
                        q = -max(1, int(r.expovariate(1 / (3 * shrink))))
                    else:
                        q = max(1, int(r.expovariate(1 / 3)))
                    add_adj(sid, loc, k, ts, "CC", q)
                for _ in range(r.choices([0, 1, 2, 3], weights=[30, 35, 25, 10])[0]):
                    k = r.choice(active)
                    ts = dt.datetime.combine(day, dt.time(8, 0)) + dt.timedelta(minutes=r.randint(0, 500))
                    add_adj(sid, r.choice(bins_by_site[sid]["Q"]), k, ts, "DM",
                            -max(1, int(r.expovariate(1 / (sku_info[k]["case"] * 0.6 + 1)))))
                if r.random() < 0.12 * shrink:
                    k = r.choice(active)
                    ts = dt.datetime.combine(day, dt.time(9, 0)) + dt.timedelta(minutes=r.randint(0, 480))
                    add_adj(sid, r.choice(bins_by_site[sid]["P"]), k, ts, "SH", -max(1, int(r.expovariate(1 / 6))))
                if r.random() < 0.15:
                    k = r.choice(active)
                    ts = dt.datetime.combine(day, dt.time(9, 0)) + dt.timedelta(minutes=r.randint(0, 480))
                    add_adj(sid, r.choice(bins_by_site[sid]["R"]), k, ts, "FD", max(1, int(r.expovariate(1 / 4))))
                if r.random() < 0.2:
                    k = r.choice(active)
                    ts = dt.datetime.combine(day, dt.time(10, 0)) + dt.timedelta(minutes=r.randint(0, 300))
                    add_adj(sid, r.choice(bins_by_site[sid]["Q"]), k, ts, "RV",
                            -sku_info[k]["case"] * r.randint(1, 4))
        day += dt.timedelta(days=1)
    for sid, order_no, k, picked, ship_ts in shipped_lines:
        info = sku_info[k]
        if r.random() < info["ret"]:
            ts = ship_ts + dt.timedelta(days=r.randint(4, 45), minutes=r.randint(0, 600))
            if ts.date() > EXTRACT_DAY or not site_open(site_by_id[sid], ts.date()):
                continue
            q = picked if r.random() < 0.45 else r.randint(1, picked)
            add_adj(sid, r.choice(bins_by_site[sid]["D"]), k, ts, "RT", q, order_no)
    adjs.sort(key=lambda a: (a[4], a[0]))
    adjs = [tuple([i + 1] + a[1:]) for i, a in enumerate(adjs)]

    # month-end stock snapshots
    stock = []
    for sid in (s[0] for s in SITES):
        s = site_by_id[sid]
        for k in stocked[sid]:
            info = sku_info[k]
            level = None
            base_days = r.uniform(18, 55)
            for me in month_ends(FIRST_DAY, EXTRACT_DAY):
                if not site_open(s, me) or info["created"] > me:
                    continue
                if s[6] is not None and me > s[6] - dt.timedelta(days=28):
                    continue  # Memphis: last snapshot before it emptied
                monthly = demand.get((sid, k, (me.year, me.month)), 0)
                if info["disc"] and me >= info["disc"]:
                    if level is None:
                        level = 0
                    if me < info["disc"] + dt.timedelta(days=70):
                        level = int(level * r.uniform(0.2, 0.6))
                    elif r.random() < 0.08:
                        level = int(level * r.uniform(0.3, 0.9))
                    if level <= 0:
                        continue
                    stock.append((me, sid, k, level, 0))
                    continue
                target = monthly * base_days / 30 + info["case"] * r.randint(0, 6)
                if r.random() < 0.035 * (1.6 if sid == 2 else 1.0):
                    level = 0  # stocked out at month end
                else:
                    level = max(0, int(target * r.uniform(0.6, 1.5)))
                alloc = min(level, int(monthly * r.uniform(0.0, 0.12)))
                if info["status"] == "H":
                    alloc = 0
                stock.append((me, sid, k, level, alloc))

    return {"sites": sites, "bin_loc": bins, "vendors": vendors, "sku": skus, "stock": stock,
            "rcpt": rcpts, "pick_ticket": picks, "inv_adj": adjs}


def month_key(day: dt.date):
    return (day.year, day.month)


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
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Warehouse management system: sites, bins, SKUs, stock "
                    f"snapshots, receipts, pick tickets, adjustments, 2022-2024 (extract of 2024-12-31)'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON TABLE {SCHEMA}.{table} IS {{}}").format(sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {{}}").format(sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f"COPY {SCHEMA}.{table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {SCHEMA}.{table}")
            counts[f"{SCHEMA}.{table}"] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic warehouse management system into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A synthetic retail chain's Kimball-style star schema (2023-01-01 .. extract 2024-12-15) on PostgreSQL.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_starshop if missing, drops and rebuilds schema "dw", loads seven tables generated
deterministically with random.Random(41), and creates (or resets) the read-only login role
starshop_reader / starshop_reader. Idempotent: the same rows on every run.

Naming: Kimball star schema, snake_case, dim_* / fact_* tables, integer surrogate keys *_key.
Foreign keys are declared from the facts to the dimensions, except fact_returns.sale_date_key
(role-playing date of the original purchase) and the receipt_no link from returns to sales;
dim_customer.home_store_key and dim_customer.referred_by_key (self-reference) are not declared either.
Dates are reached only through dim_date (the facts carry date_key integers yyyymmdd, no date column).

  dw.dim_date      calendar 2022-01-01 .. 2025-12-31 (wider than the data): year, quarter, month_name,
                   month_num, weekday_name, is_holiday, fiscal_year / fiscal_quarter (FY starts 1 Feb)
  dw.dim_store     13 stores (12 shops + the online store WEB1, city NULL); SCD type 2: Pittsburgh
                   (PIT1) moved from region Northeast to Midwest on 2024-01-01 and has two rows;
                   Austin (AUS1) opened 2024-05-04; 'Riverside Mall' (Columbus) vs 'Riverside Outlet'
                   (Sacramento)
  dw.dim_product   SKUs with brand, category, subcategory, list price, unit cost, status code (A/D/N)
  dw.dim_customer  loyalty members (tier codes T1..T4), signup date, city, home store, referrer;
                   key -1 = unknown / walk-in
  dw.dim_promo     promotions: code, name, type code, percent off, dates, category scope
  dw.fact_sales    one row per receipt line (receipt_no + line_no): qty, net_amount, discount_amount
  dw.fact_returns  one row per returned line: return date, store returned to, qty, refund, reason code
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

DATABASE, SCHEMA, ROLE = "dev_starshop", "dw", "starshop_reader"
URL = "postgresql://starshop_reader:starshop_reader@127.0.0.1:5432/dev_starshop"
SEED = 41
FIRST_DAY, EXTRACT_DAY = dt.date(2023, 1, 1), dt.date(2024, 12, 15)
CAL_FIRST, CAL_LAST = dt.date(2022, 1, 1), dt.date(2025, 12, 31)

DDL = [
    """CREATE TABLE dw.dim_date (
        date_key integer PRIMARY KEY,
        full_date date NOT NULL UNIQUE,
        year smallint NOT NULL,
        quarter smallint NOT NULL,
        month_name varchar(9) NOT NULL,
        month_num smallint NOT NULL,
        weekday_name varchar(9) NOT NULL,
        is_holiday boolean NOT NULL,
        fiscal_year smallint NOT NULL,
        fiscal_quarter smallint NOT NULL)""",
    """CREATE TABLE dw.dim_store (
        store_key integer PRIMARY KEY,
        store_code varchar(6) NOT NULL,
        store_name varchar(40) NOT NULL,
        city varchar(30),
        region varchar(12) NOT NULL,
        opened_on date NOT NULL,
        row_valid_from date NOT NULL,
        row_valid_to date,
        is_current boolean NOT NULL)""",
    """CREATE TABLE dw.dim_product (
        product_key integer PRIMARY KEY,
        sku varchar(12) NOT NULL UNIQUE,
        product_name varchar(60) NOT NULL,
        brand varchar(30) NOT NULL,
        category varchar(20) NOT NULL,
        subcategory varchar(30) NOT NULL,
        list_price numeric(8, 2) NOT NULL,
        unit_cost numeric(8, 2) NOT NULL,
        status char(1) NOT NULL)""",
    """CREATE TABLE dw.dim_customer (
        customer_key integer PRIMARY KEY,
        customer_id varchar(10) NOT NULL UNIQUE,
        loyalty_tier char(2),
        signup_date date,
        city varchar(30),
        home_store_key integer,
        referred_by_key integer)""",
    """CREATE TABLE dw.dim_promo (
        promo_key integer PRIMARY KEY,
        promo_code varchar(12) NOT NULL,
        promo_name varchar(50) NOT NULL,
        promo_type varchar(4) NOT NULL,
        pct_off numeric(4, 1) NOT NULL,
        start_date date NOT NULL,
        end_date date NOT NULL,
        category_scope varchar(20))""",
    """CREATE TABLE dw.fact_sales (
        receipt_no varchar(20) NOT NULL,
        line_no smallint NOT NULL,
        date_key integer NOT NULL REFERENCES dw.dim_date (date_key),
        store_key integer NOT NULL REFERENCES dw.dim_store (store_key),
        product_key integer NOT NULL REFERENCES dw.dim_product (product_key),
        customer_key integer NOT NULL REFERENCES dw.dim_customer (customer_key),
        promo_key integer REFERENCES dw.dim_promo (promo_key),
        qty smallint NOT NULL,
        net_amount numeric(10, 2) NOT NULL,
        discount_amount numeric(10, 2) NOT NULL,
        PRIMARY KEY (receipt_no, line_no))""",
    """CREATE TABLE dw.fact_returns (
        return_line_id integer PRIMARY KEY,
        date_key integer NOT NULL REFERENCES dw.dim_date (date_key),
        sale_date_key integer NOT NULL,
        store_key integer NOT NULL REFERENCES dw.dim_store (store_key),
        product_key integer NOT NULL REFERENCES dw.dim_product (product_key),
        customer_key integer NOT NULL REFERENCES dw.dim_customer (customer_key),
        receipt_no varchar(20) NOT NULL,
        qty_returned smallint NOT NULL,
        refund_amount numeric(10, 2) NOT NULL,
        reason_code char(1) NOT NULL)""",
]
TABLE_COMMENTS = {
    "dim_date": "Calendar dimension, one row per day",
    "dim_store": "Store dimension (SCD type 2: a store whose attributes changed has one row per version)",
    "dim_product": "Product dimension, one row per SKU",
    "dim_customer": "Loyalty program members; customer_key -1 = unknown / walk-in",
    "dim_promo": "Promotions",
    "fact_sales": "Sales, one row per receipt line",
    "fact_returns": "Returns, one row per returned receipt line",
}
COLUMN_COMMENTS = {
    ("dim_date", "date_key"): "yyyymmdd",
    ("dim_date", "is_holiday"): "US public holiday (New Year, Memorial Day, July 4, Labor Day, Thanksgiving, "
                                "Christmas); shops are closed on Thanksgiving and Christmas Day",
    ("dim_date", "fiscal_year"): "fiscal year starts 1 February: FY2023 = 2023-02-01 .. 2024-01-31",
    ("dim_store", "store_key"): "surrogate key; a new row (new key, same store_code) when a store's attributes change",
    ("dim_store", "city"): "NULL for the online store",
    ("dim_store", "is_current"): "true on the current version of the store",
    ("dim_product", "status"): "A = active, D = discontinued, N = new (not yet on sale)",
    ("dim_product", "unit_cost"): "landed cost per unit, USD",
    ("dim_customer", "loyalty_tier"): "T1 = Bronze, T2 = Silver, T3 = Gold (5% member discount), "
                                      "T4 = Platinum (10% member discount); NULL on the -1 row",
    ("dim_customer", "home_store_key"): "store where the member signed up",
    ("dim_customer", "referred_by_key"): "customer_key of the member who referred them; NULL if not referred",
    ("dim_promo", "promo_type"): "PCT = percent off, BOGO = buy one get one 50%, CLR = clearance, "
                                 "LOY = members-only event",
    ("dim_promo", "category_scope"): "product category the promo applies to; NULL = storewide",
    ("fact_sales", "receipt_no"): "POS receipt number (one receipt = one basket / transaction)",
    ("fact_sales", "net_amount"): "USD actually charged for the line after all discounts, excl. sales tax",
    ("fact_sales", "discount_amount"): "USD off list price on the line: promotion plus loyalty member discount",
    ("fact_sales", "promo_key"): "NULL when no promotion applied",
    ("fact_returns", "date_key"): "date of the return",
    ("fact_returns", "sale_date_key"): "date of the original purchase (yyyymmdd)",
    ("fact_returns", "store_key"): "store the item was returned to (online orders may be returned in a shop)",
    ("fact_returns", "receipt_no"): "receipt of the original sale",
    ("fact_returns", "refund_amount"): "USD refunded",
    ("fact_returns", "reason_code"): "S = wrong size / fit, D = damaged or defective, C = changed mind, "
                                     "W = wrong item received",
}

# key, code, name, city, region, opened, traffic weight, walk-in share, growth per year
STORES = [
    (1, "CHI1", "Michigan Ave Flagship", "Chicago", "Midwest", dt.date(2012, 4, 14), 2.1, 0.38, 0.02),
    (2, "OBK1", "Oak Brook Center", "Oak Brook", "Midwest", dt.date(2015, 9, 3), 0.9, 0.40, -0.03),
    (3, "CMH1", "Riverside Mall", "Columbus", "Midwest", dt.date(2016, 3, 19), 0.8, 0.42, 0.00),
    (4, "PIT1", "Strip District", "Pittsburgh", "Northeast", dt.date(2017, 6, 10), 0.7, 0.40, -0.04),
    (5, "BOS1", "Back Bay", "Boston", "Northeast", dt.date(2013, 11, 2), 1.2, 0.35, 0.01),
    (6, "NYC1", "SoHo", "New York", "Northeast", dt.date(2014, 5, 17), 1.7, 0.45, 0.03),
    (7, "ATL1", "Buckhead", "Atlanta", "South", dt.date(2016, 8, 27), 1.0, 0.37, 0.09),
    (8, "MIA1", "Brickell", "Miami", "South", dt.date(2018, 2, 24), 1.0, 0.44, 0.08),
    (9, "PDX1", "Pearl District", "Portland", "West", dt.date(2017, 10, 7), 0.8, 0.36, 0.02),
    (10, "SAC1", "Riverside Outlet", "Sacramento", "West", dt.date(2019, 4, 6), 0.9, 0.48, 0.00),
    (11, "SFO1", "Union Square", "San Francisco", "West", dt.date(2013, 3, 9), 1.3, 0.40, -0.02),
    (12, "WEB1", "Online Store", None, "Online", dt.date(2018, 1, 15), 1.6, 0.08, 0.35),
    (13, "AUS1", "South Congress", "Austin", "South", dt.date(2024, 5, 4), 0.9, 0.40, 0.0),
]
PIT_NEW_KEY, PIT_SWITCH = 14, dt.date(2024, 1, 1)   # PIT1 realigned to Midwest: new SCD2 row

# category -> subcategory -> (price low, high, cost ratio low, high, popularity, return rate)
CATALOG = {
    "Apparel": {"Tops": (14, 58, 0.35, 0.5, 1.6, 0.06), "Bottoms": (29, 89, 0.38, 0.52, 1.1, 0.08),
                "Outerwear": (79, 249, 0.42, 0.55, 0.6, 0.06), "Socks & Underwear": (8, 24, 0.3, 0.45, 1.3, 0.01)},
    "Footwear": {"Sneakers": (59, 159, 0.45, 0.58, 0.9, 0.12), "Boots": (89, 219, 0.45, 0.58, 0.5, 0.11),
                 "Sandals": (24, 69, 0.4, 0.55, 0.4, 0.09)},
    "Home": {"Kitchen": (12, 79, 0.4, 0.55, 0.7, 0.03), "Bedding": (29, 179, 0.38, 0.5, 0.5, 0.04),
             "Decor": (9, 89, 0.3, 0.45, 0.6, 0.03)},
    "Beauty": {"Skincare": (12, 64, 0.22, 0.35, 0.8, 0.02), "Fragrance": (39, 119, 0.25, 0.38, 0.4, 0.015)},
    "Accessories": {"Bags": (24, 149, 0.35, 0.5, 0.5, 0.04), "Hats": (14, 39, 0.3, 0.45, 0.4, 0.03),
                    "Jewelry": (15, 89, 0.2, 0.35, 0.4, 0.03)},
}
BRANDS = {
    "Apparel": ["Starline", "Northbound", "Urban Thread", "Kessler & Co"],
    "Footwear": ["Trailpeak", "Stride Lab", "Northbound", "Starline"],
    "Home": ["Hearth & Oak", "Casa Verde", "Starline"],
    "Beauty": ["Lumiere", "Pure Botanica"],
    "Accessories": ["Kessler & Co", "Urban Thread", "Starline"],
}
NOUNS = {
    "Tops": ["Crew Tee", "V-Neck Tee", "Oxford Shirt", "Henley", "Polo", "Tank Top", "Flannel Shirt", "Hoodie"],
    "Bottoms": ["Slim Chino", "Straight Jeans", "Jogger", "Cargo Pant", "Shorts", "Pleated Skirt"],
    "Outerwear": ["Puffer Jacket", "Rain Shell", "Wool Coat", "Denim Jacket", "Fleece Vest"],
    "Socks & Underwear": ["Crew Socks 3-Pack", "Ankle Socks 6-Pack", "Boxer Briefs 3-Pack", "Wool Hiking Socks"],
    "Sneakers": ["Court Sneaker", "Runner", "Canvas Low", "Trail Runner", "Slip-On"],
    "Boots": ["Chelsea Boot", "Hiker Boot", "Work Boot", "Rain Boot"],
    "Sandals": ["Slide", "Sport Sandal", "Flip Flop"],
    "Kitchen": ["Chef Knife", "Cast Iron Skillet", "Mug Set", "Cutting Board", "French Press"],
    "Bedding": ["Percale Sheet Set", "Duvet Cover", "Down Pillow", "Throw Blanket"],
    "Decor": ["Scented Candle", "Ceramic Vase", "Picture Frame", "Wall Mirror", "Table Lamp"],
    "Skincare": ["Daily Moisturizer", "Vitamin C Serum", "Gentle Cleanser", "SPF 30 Lotion", "Lip Balm"],
    "Fragrance": ["Eau de Parfum", "Body Mist", "Cologne"],
    "Bags": ["Canvas Tote", "Leather Backpack", "Crossbody Bag", "Weekender"],
    "Hats": ["Beanie", "Baseball Cap", "Bucket Hat"],
    "Jewelry": ["Hoop Earrings", "Chain Necklace", "Bangle", "Signet Ring"],
}
ADJ = ["Everyday", "Classic", "Heritage", "Urban", "Coastal", "Alpine", "Essential", "Studio", "Weekend", "Summit"]
COLORS = ["Black", "Navy", "Olive", "Sand", "Grey", "White", "Rust", "Forest"]

PROMOS = [  # key, code, name, type, pct, start, end, category scope, uptake
    (1, "WNTR23", "Winter Clearance 2023", "CLR", 40, dt.date(2023, 1, 2), dt.date(2023, 1, 31), "Apparel", 0.7),
    (2, "VDAY23", "Valentine's Beauty Event", "PCT", 20, dt.date(2023, 2, 6), dt.date(2023, 2, 14), "Beauty", 0.6),
    (3, "SPRHOME", "Spring Home Refresh", "PCT", 25, dt.date(2023, 4, 1), dt.date(2023, 4, 16), "Home", 0.6),
    (4, "SUMSHOE", "Summer Shoe BOGO", "BOGO", 25, dt.date(2023, 6, 15), dt.date(2023, 7, 9), "Footwear", 0.5),
    (5, "B2S23", "Back to School", "PCT", 15, dt.date(2023, 8, 1), dt.date(2023, 8, 31), None, 0.45),
    (6, "VIP23", "VIP Members Night", "LOY", 20, dt.date(2023, 10, 12), dt.date(2023, 10, 15), None, 0.8),
    (7, "BF23", "Black Friday 2023", "PCT", 30, dt.date(2023, 11, 24), dt.date(2023, 11, 27), None, 0.85),
    (8, "HOL23", "Holiday Gift Sale", "PCT", 15, dt.date(2023, 12, 8), dt.date(2023, 12, 24), "Accessories", 0.6),
    (9, "WNTR24", "Winter Clearance 2024", "CLR", 40, dt.date(2024, 1, 2), dt.date(2024, 1, 31), "Apparel", 0.7),
    (10, "SPRHOME", "Spring Home Refresh", "PCT", 25, dt.date(2024, 4, 5), dt.date(2024, 4, 21), "Home", 0.6),
    (11, "SUMSHOE", "Summer Shoe BOGO", "BOGO", 25, dt.date(2024, 6, 13), dt.date(2024, 7, 7), "Footwear", 0.5),
    (12, "B2S24", "Back to School", "PCT", 15, dt.date(2024, 8, 1), dt.date(2024, 8, 31), None, 0.45),
    (13, "VIP24", "VIP Members Night", "LOY", 20, dt.date(2024, 10, 10), dt.date(2024, 10, 13), None, 0.8),
    (14, "BF24", "Black Friday 2024", "PCT", 30, dt.date(2024, 11, 29), dt.date(2024, 12, 2), None, 0.85),
    (15, "HOL24", "Holiday Gift Sale", "PCT", 15, dt.date(2024, 12, 6), dt.date(2024, 12, 24), "Accessories", 0.6),
    (16, "SPRBTY25", "Spring Beauty Week", "PCT", 20, dt.date(2025, 3, 10), dt.date(2025, 3, 16), "Beauty", 0.0),
]
TIER_DISC = {"T1": 0.0, "T2": 0.0, "T3": 0.05, "T4": 0.10}
WEEKDAY = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def nth_weekday(year, month, weekday, n):
    d = dt.date(year, month, 1)
    d += dt.timedelta(days=(weekday - d.weekday()) % 7)
    return d + dt.timedelta(weeks=n - 1)


def last_weekday(year, month, weekday):
    d = dt.date(year, month + 1, 1) - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() - weekday) % 7)


def holidays(year):
    return {dt.date(year, 1, 1), last_weekday(year, 5, 0), dt.date(year, 7, 4), nth_weekday(year, 9, 0, 1),
            nth_weekday(year, 11, 3, 4), dt.date(year, 12, 25)}


def day_range(a, b):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def dkey(d):
    return d.year * 10000 + d.month * 100 + d.day


def build():
    r = random.Random(SEED)

    # ---- calendar
    hol = set().union(*(holidays(y) for y in range(CAL_FIRST.year, CAL_LAST.year + 1)))
    dates = []
    for d in day_range(CAL_FIRST, CAL_LAST):
        fy = d.year if d.month >= 2 else d.year - 1
        fq = ((d.month - 2) % 12) // 3 + 1
        dates.append((dkey(d), d, d.year, (d.month - 1) // 3 + 1, d.strftime("%B"), d.month, WEEKDAY[d.weekday()],
                      d in hol, fy, fq))

    # ---- stores (SCD2 for Pittsburgh)
    stores = []
    for key, code, name, city, region, opened, *_ in STORES:
        if code == "PIT1":
            stores.append((key, code, name, city, region, opened, opened, PIT_SWITCH - dt.timedelta(days=1), False))
        else:
            stores.append((key, code, name, city, region, opened, opened, None, True))
    pit = STORES[3]
    stores.append((PIT_NEW_KEY, "PIT1", pit[2], pit[3], "Midwest", pit[5], PIT_SWITCH, None, True))
    store_info = {s[0]: dict(code=s[1], city=s[3], opened=s[5], w=s[6], walkin=s[7], growth=s[8]) for s in STORES}

    # ---- products
    products, pinfo = [], {}
    pk = 0
    used_names = set()
    for cat, subs in CATALOG.items():
        for sub, (lo, hi, clo, chi, pop, rrate) in subs.items():
            n_items = max(6, int(round(pop * 14)))
            for _ in range(n_items):
                brand = r.choice(BRANDS[cat])
                for _try in range(50):
                    name = f"{r.choice(ADJ)} {r.choice(NOUNS[sub])}"
                    if cat in ("Apparel", "Footwear") and r.random() < 0.7:
                        name += f" - {r.choice(COLORS)}"
                    if (brand, name) not in used_names:
                        break
                used_names.add((brand, name))
                pk += 1
                price = round(r.uniform(lo, hi)) - 0.01
                cost = round(price * r.uniform(clo, chi), 2)
                products.append([pk, f"{cat[:2].upper()}-{pk:05d}", name, brand, cat, sub, price, cost, "A"])
                pinfo[pk] = dict(cat=cat, sub=sub, price=price, w=r.paretovariate(2.2) * pop * (45 / price) ** 0.5, rrate=rrate,
                                 start=dt.date(2000, 1, 1), end=dt.date(2099, 1, 1))
    # look-alike: the same product name under two brands
    for brand in ("Starline", "Northbound"):
        pk += 1
        products.append([pk, f"AP-{pk:05d}", "Everyday Crew Socks 3-Pack", brand, "Apparel", "Socks & Underwear",
                         12.99 if brand == "Starline" else 15.99, 4.10 if brand == "Starline" else 5.60, "A"])
        pinfo[pk] = dict(cat="Apparel", sub="Socks & Underwear", price=products[-1][6], w=3.0, rrate=0.01,
                         start=dt.date(2000, 1, 1), end=dt.date(2099, 1, 1))
    keys = list(pinfo)
    # 11 discontinued at the end of 2023, 18 launched during 2023/2024, 6 new ones not on sale yet
    disc = r.sample(keys, 11)
    for k in disc:
        pinfo[k]["end"] = dt.date(2023, 12, 31) - dt.timedelta(days=r.randint(0, 40))
        products[k - 1][8] = "D"
    rest = [k for k in keys if k not in disc]
    for k in r.sample(rest, 18):
        pinfo[k]["start"] = FIRST_DAY + dt.timedelta(days=r.randint(60, 640))
    for _i, (cat, sub, name, brand, price) in enumerate([
            ("Footwear", "Sneakers", "Aero Knit Runner - Black", "Stride Lab", 139.99),
            ("Footwear", "Boots", "Summit Hiker Boot GTX - Brown", "Trailpeak", 209.99),
            ("Beauty", "Skincare", "Retinol Night Cream", "Lumiere", 54.99),
            ("Home", "Decor", "Linen Table Runner", "Casa Verde", 34.99),
            ("Apparel", "Outerwear", "Recycled Down Parka - Olive", "Northbound", 239.99),
            ("Accessories", "Jewelry", "Pearl Drop Earrings", "Kessler & Co", 64.99)]):
        pk += 1
        cost = round(price * 0.45, 2)
        products.append([pk, f"{cat[:2].upper()}-{pk:05d}", name, brand, cat, sub, price, cost, "N"])
        pinfo[pk] = dict(cat=cat, sub=sub, price=price, w=1.0, rrate=0.05, start=dt.date(2025, 1, 10),
                         end=dt.date(2099, 1, 1))
    products = [tuple(p) for p in products]
    pkeys = list(pinfo)

    # ---- customers
    customers = [(-1, "UNKNOWN", None, None, None, None, None)]
    pools = {k: [] for k in store_info}
    ck = 0
    members = []
    for _ in range(7200):
        ck += 1
        home = r.choices(list(store_info), weights=[store_info[k]["w"] for k in store_info])[0]
        opened = store_info[home]["opened"]
        start = max(dt.date(2016, 1, 1), opened)
        signup = start + dt.timedelta(days=int((EXTRACT_DAY - start).days * r.random() ** 0.7))
        tier = r.choices(["T1", "T2", "T3", "T4"], weights=[55, 27, 13, 5])[0]
        city = store_info[home]["city"]
        if city is None or r.random() < 0.12:
            city = r.choice(["Chicago", "Naperville", "Columbus", "Pittsburgh", "Boston", "Cambridge", "New York",
                             "Brooklyn", "Atlanta", "Miami", "Portland", "Sacramento", "San Francisco", "Oakland",
                             "Austin", "Denver", "Seattle", "Dallas", "Phoenix", "Minneapolis"])
        referred = None
        if signup >= dt.date(2021, 1, 1) and members and r.random() < 0.18:
            earlier = [m for m in members[-2500:] if m["signup"] < signup]
            if earlier:
                referred = r.choice(earlier)["key"]
        # some members lapse: no purchases at all
        w = 0.0 if r.random() < 0.06 else r.paretovariate(1.4) * {"T1": 1, "T2": 1.8, "T3": 3, "T4": 5}[tier]
        m = dict(key=ck, signup=signup, tier=tier, w=w, home=home)
        members.append(m)
        customers.append((ck, f"C{100000 + ck * 7 % 900000:06d}", tier, signup, city,
                          PIT_NEW_KEY if home == 4 and signup >= PIT_SWITCH else home, referred))
        pools[home].append(m)
    all_pool = sorted(members, key=lambda m: m["signup"])
    for k, pool in list(pools.items()):
        pool.sort(key=lambda m: m["signup"])
        pools[k] = (pool, [m["signup"] for m in pool], list(itertools.accumulate(m["w"] for m in pool)))
    all_pool = (all_pool, [m["signup"] for m in all_pool], list(itertools.accumulate(m["w"] for m in all_pool)))

    promos = [(k, c, n, t, p, s, e, sc) for k, c, n, t, p, s, e, sc, _ in PROMOS]

    # ---- sales and returns
    pcum = list(itertools.accumulate(pinfo[k]["w"] for k in pkeys))
    sales, returns = [], []
    rid = 0
    black_fridays = {nth_weekday(y, 11, 3, 4) + dt.timedelta(days=1) for y in (2023, 2024)}
    for day in day_range(FIRST_DAY, EXTRACT_DAY):
        wd = day.weekday()
        month_f = {1: 0.7, 2: 0.75, 3: 0.9, 4: 0.95, 5: 1.0, 6: 0.95, 7: 0.95, 8: 1.1, 9: 0.9, 10: 0.95,
                   11: 1.25, 12: 1.6}[day.month]
        if day in black_fridays:
            month_f *= 3.0
        if day.month == 12 and day.day > 26:
            month_f *= 0.8
        active_promos = [p for p in PROMOS if p[5] <= day <= p[6]]
        for skey, info in store_info.items():
            if day < info["opened"]:
                continue
            web = info["code"] == "WEB1"
            if not web and (day in (nth_weekday(day.year, 11, 3, 4), dt.date(day.year, 12, 25))):
                continue  # shops closed on Thanksgiving and Christmas
            t = (day - FIRST_DAY).days / 365.25
            week_f = (1.0 if web else [0.8, 0.75, 0.8, 0.9, 1.15, 1.5, 1.2][wd])
            mean = 4.6 * info["w"] * month_f * week_f * (1 + info["growth"]) ** t
            if info["code"] == "AUS1" and (day - info["opened"]).days < 30:
                mean *= 1.4  # grand opening
            n = max(0, int(r.gauss(mean, math.sqrt(mean)) + 0.5))
            key_today = PIT_NEW_KEY if skey == 4 and day >= PIT_SWITCH else skey
            for seq in range(1, n + 1):
                receipt = f"{info['code']}-{dkey(day)}-{seq:04d}"
                if r.random() < info["walkin"]:
                    cust = None
                else:
                    pool, signups, cum = pools[skey] if r.random() < 0.85 else all_pool
                    j = bisect.bisect_right(signups, day)
                    cust = r.choices(pool[:j], cum_weights=cum[:j])[0] if j and cum[j - 1] > 0 else None
                n_lines = 1 + min(7, int(r.expovariate(1 / (0.9 if cust is None else 1.2))))
                chosen = set()
                for line in range(1, n_lines + 1):
                    for _try in range(20):
                        p = r.choices(pkeys, cum_weights=pcum)[0]
                        pi = pinfo[p]
                        if pi["start"] <= day <= pi["end"] and p not in chosen:
                            break
                    else:
                        continue
                    chosen.add(p)
                    qty = 1 if r.random() < 0.82 else r.choice([2, 2, 2, 3, 4])
                    if pi["sub"] == "Socks & Underwear" and r.random() < 0.3:
                        qty += 1
                    pct = 0.0
                    promo = None
                    for pr in active_promos:
                        if pr[7] is not None and pr[7] != pi["cat"]:
                            continue
                        if pr[3] == "LOY" and cust is None:
                            continue
                        if r.random() < pr[8]:
                            promo, pct = pr[0], pr[4] / 100
                            break
                    tier_pct = TIER_DISC[cust["tier"]] if cust else 0.0
                    gross = round(qty * pi["price"], 2)
                    discount = round(gross * min(0.6, pct + tier_pct), 2)
                    net = round(gross - discount, 2)
                    ckey = cust["key"] if cust else -1
                    sales.append((receipt, line, dkey(day), key_today, p, ckey, promo, qty, net, discount))
                    # returns
                    rrate = pi["rrate"] * (2.3 if web else 1.0) * (0.6 if promo and pct >= 0.4 else 1.0)
                    if r.random() < rrate:
                        lag = max(1, int(r.lognormvariate(math.log(9 if web else 6), 0.7)))
                        rday = day + dt.timedelta(days=lag)
                        if rday > EXTRACT_DAY:
                            continue
                        rstore = key_today
                        if web and cust is not None and r.random() < 0.45:
                            h = cust["home"]
                            if h != 12 and store_info[h]["opened"] <= rday:
                                rstore = PIT_NEW_KEY if h == 4 and rday >= PIT_SWITCH else h
                        if rstore == 4 and rday >= PIT_SWITCH:
                            rstore = PIT_NEW_KEY
                        rq = qty if r.random() < 0.8 else r.randint(1, qty)
                        refund = round(net * rq / qty, 2)
                        if pi["cat"] == "Footwear":
                            wts = [62, 14, 18, 6]
                        elif pi["cat"] == "Apparel":
                            wts = [48, 12, 32, 8]
                        else:
                            wts = [3, 38, 45, 14]
                        if web:
                            wts[3] *= 2.5
                        reason = r.choices("SDCW", weights=wts)[0]
                        rid += 1
                        returns.append((rid, dkey(rday), dkey(day), rstore, p, ckey, receipt, rq, refund, reason))
    returns.sort(key=lambda x: (x[1], x[0]))
    returns = [(i + 1, *row[1:]) for i, row in enumerate(returns)]
    return {"dim_date": dates, "dim_store": stores, "dim_product": products, "dim_customer": customers,
            "dim_promo": promos, "fact_sales": sales, "fact_returns": returns}


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
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Retail chain data warehouse (star schema): sales and "
                    f"returns 2023-01-01 .. 2024-12-15 (extract of 2024-12-15)'")
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
    print(f"loaded the synthetic retail star schema into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A synthetic bicycle retail chain (2016-01-01 .. 2018-09-30) on PostgreSQL, PascalCase quoted, schema `retail`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_bikeshop if missing, drops and rebuilds schema "retail" with nine tables
(declared primary and foreign keys, a self-referencing manager key on "Staffs"), fills them with
data generated deterministically by random.Random(7) (no download, no R data set), and creates
(or resets) the read-only login role bikeshop_reader / bikeshop_reader. Idempotent: the same
rows on every run.

  retail."Brands"      bicycle and accessory brands
  retail."Categories"  product categories; "ProductLine" = 'Bikes' or 'Accessories'
  retail."Products"    one row per product (model and model year), "ListPrice" in USD
  retail."Stores"      four shops (Santa Cruz CA, Baldwin NY, Rowlett TX, Portland OR opened 2017-03-01)
  retail."Staffs"      staff; "ManagerId" -> "Staffs"."StaffId" (NULL for the general manager)
  retail."Customers"   customers (some never ordered)
  retail."Orders"      one row per order; "OrderStatus" 1 Pending, 2 Processing, 3 Rejected, 4 Completed
  retail."OrderItems"  one row per order line ("OrderId", "ItemId"); Quantity, ListPrice, Discount
  retail."Stocks"      units on hand per store and product (every store x product; 0 = out of stock)
"""

import datetime as dt
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_bikeshop", "retail", "bikeshop_reader"
URL = f"postgresql://{ROLE}:{ROLE}@127.0.0.1:5432/{DATABASE}"
START, END = dt.date(2016, 1, 1), dt.date(2018, 9, 30)

DDL = [
    """CREATE TABLE retail."Brands" (
        "BrandId" integer PRIMARY KEY,
        "BrandName" varchar(40) NOT NULL UNIQUE)""",
    """CREATE TABLE retail."Categories" (
        "CategoryId" integer PRIMARY KEY,
        "CategoryName" varchar(40) NOT NULL UNIQUE,
        "ProductLine" varchar(12) NOT NULL)""",
    """CREATE TABLE retail."Products" (
        "ProductId" integer PRIMARY KEY,
        "ProductName" varchar(80) NOT NULL,
        "BrandId" integer NOT NULL REFERENCES retail."Brands" ("BrandId"),
        "CategoryId" integer NOT NULL REFERENCES retail."Categories" ("CategoryId"),
        "ModelYear" smallint NOT NULL,
        "ListPrice" numeric(10, 2) NOT NULL)""",
    """CREATE TABLE retail."Stores" (
        "StoreId" integer PRIMARY KEY,
        "StoreName" varchar(40) NOT NULL,
        "Phone" varchar(20),
        "Email" varchar(60),
        "Street" varchar(60),
        "City" varchar(40) NOT NULL,
        "State" char(2) NOT NULL,
        "ZipCode" varchar(10),
        "OpenedDate" date NOT NULL)""",
    """CREATE TABLE retail."Staffs" (
        "StaffId" integer PRIMARY KEY,
        "FirstName" varchar(40) NOT NULL,
        "LastName" varchar(40) NOT NULL,
        "Email" varchar(80) NOT NULL,
        "Phone" varchar(20),
        "Active" smallint NOT NULL,
        "StoreId" integer NOT NULL REFERENCES retail."Stores" ("StoreId"),
        "ManagerId" integer REFERENCES retail."Staffs" ("StaffId"))""",
    """CREATE TABLE retail."Customers" (
        "CustomerId" integer PRIMARY KEY,
        "FirstName" varchar(40) NOT NULL,
        "LastName" varchar(40) NOT NULL,
        "Phone" varchar(20),
        "Email" varchar(80) NOT NULL,
        "Street" varchar(60),
        "City" varchar(40) NOT NULL,
        "State" char(2) NOT NULL,
        "ZipCode" varchar(10))""",
    """CREATE TABLE retail."Orders" (
        "OrderId" integer PRIMARY KEY,
        "CustomerId" integer NOT NULL REFERENCES retail."Customers" ("CustomerId"),
        "OrderStatus" smallint NOT NULL CHECK ("OrderStatus" BETWEEN 1 AND 4),
        "OrderDate" date NOT NULL,
        "RequiredDate" date NOT NULL,
        "ShippedDate" date,
        "StoreId" integer NOT NULL REFERENCES retail."Stores" ("StoreId"),
        "StaffId" integer NOT NULL REFERENCES retail."Staffs" ("StaffId"))""",
    """CREATE TABLE retail."OrderItems" (
        "OrderId" integer NOT NULL REFERENCES retail."Orders" ("OrderId"),
        "ItemId" integer NOT NULL,
        "ProductId" integer NOT NULL REFERENCES retail."Products" ("ProductId"),
        "Quantity" integer NOT NULL CHECK ("Quantity" > 0),
        "ListPrice" numeric(10, 2) NOT NULL,
        "Discount" numeric(4, 2) NOT NULL DEFAULT 0,
        PRIMARY KEY ("OrderId", "ItemId"))""",
    """CREATE TABLE retail."Stocks" (
        "StoreId" integer NOT NULL REFERENCES retail."Stores" ("StoreId"),
        "ProductId" integer NOT NULL REFERENCES retail."Products" ("ProductId"),
        "Quantity" integer NOT NULL CHECK ("Quantity" >= 0),
        PRIMARY KEY ("StoreId", "ProductId"))""",
]
TABLE_COMMENTS = {
    "Brands": "Bicycle and accessory brands the chain sells",
    "Categories": "Product categories",
    "Products": "One row per product (model and model year) in the catalogue",
    "Stores": "The chain's shops",
    "Staffs": "Shop staff; ManagerId is the StaffId of the person they report to",
    "Customers": "Customers of the chain",
    "Orders": "One row per customer order, taken at a store by a staff member",
    "OrderItems": "One row per order line (product) of an order",
    "Stocks": "Current units on hand per store and product",
}
COLUMN_COMMENTS = {
    ("Categories", "ProductLine"): "'Bikes' (bicycles) or 'Accessories' (helmets, locks, lights)",
    ("Products", "ListPrice"): "catalogue price of one unit, USD",
    ("Staffs", "Active"): "1 = currently employed, 0 = has left",
    ("Orders", "OrderStatus"): "1 = Pending, 2 = Processing, 3 = Rejected, 4 = Completed",
    ("Orders", "RequiredDate"): "date the customer needs the order by",
    ("Orders", "ShippedDate"): "date the order shipped; NULL until it has shipped",
    ("OrderItems", "ListPrice"): "unit price charged before discount, USD",
    ("OrderItems", "Discount"): "fraction off the list price (0.10 = 10%); "
                                "line amount = Quantity * ListPrice * (1 - Discount)",
    ("Stocks", "Quantity"): "units on hand; 0 = out of stock",
}

BRANDS = ["Electra", "Haro", "Heller", "Pure Cycles", "Ritchey", "Strider", "Sun Bicycles", "Surly", "Trek",
          "Giro", "Kryptonite", "Lezyne"]
# name, product line, price range, brands, model stems
CATEGORIES = [
    ("Children Bicycles", "Bikes", (150, 550), ["Electra", "Haro", "Strider", "Trek"],
     ["Sprocket", "Precaliber", "Cruiser Lux Jr", "Shredder", "Balance 12", "Kids Sport"]),
    ("Comfort Bicycles", "Bikes", (400, 1000), ["Electra", "Sun Bicycles", "Trek"],
     ["Townie Go", "Verve", "Loft 7D", "Drifter", "Atlas"]),
    ("Cruisers Bicycles", "Bikes", (250, 1300), ["Electra", "Pure Cycles", "Sun Bicycles"],
     ["Cruiser 1", "Moto 3i", "Original", "Revolutions", "Coast"]),
    ("Cyclocross Bicycles", "Bikes", (1100, 3800), ["Surly", "Trek", "Ritchey"],
     ["Straggler", "Crockett", "Boone", "Swiss Cross"]),
    ("Electric Bikes", "Bikes", (2200, 5800), ["Electra", "Trek", "Sun Bicycles"],
     ["Powerfly", "Super Commuter+", "Townie Go! 8i", "Dual Sport+", "Lafree"]),
    ("Mountain Bikes", "Bikes", (450, 5200), ["Haro", "Heller", "Ritchey", "Surly", "Trek"],
     ["Marlin", "Fuel EX", "Remedy", "Shagamaw", "Ice Cream Truck", "Double Peak", "P-59"]),
    ("Road Bikes", "Bikes", (750, 6400), ["Pure Cycles", "Ritchey", "Surly", "Trek"],
     ["Domane", "Emonda", "Pacer", "Road Logic", "Veloce", "Checkpoint"]),
    ("Helmets", "Accessories", (40, 260), ["Giro", "Trek"], ["Register", "Fixture", "Aether", "Scamp"]),
    ("Locks", "Accessories", (25, 130), ["Kryptonite"], ["Evolution Mini", "KryptoLok", "New York Chain", "Keeper"]),
    ("Lights", "Accessories", (20, 160), ["Lezyne", "Trek"], ["Micro Drive", "Lite Drive", "Strip Drive", "Flare"]),
]
STORES = [
    (1, "Santa Cruz Bikes", "(831) 476-4321", "santacruz@bikeshop.example", "3700 Portola Drive", "Santa Cruz",
     "CA", "95060", dt.date(2010, 4, 1)),
    (2, "Baldwin Bikes", "(516) 379-8888", "baldwin@bikeshop.example", "4200 Chestnut Lane", "Baldwin", "NY",
     "11432", dt.date(2012, 9, 15)),
    (3, "Rowlett Bikes", "(972) 530-5555", "rowlett@bikeshop.example", "8000 Fairway Avenue", "Rowlett", "TX",
     "75088", dt.date(2014, 5, 1)),
    (4, "Portland Bikes", "(503) 555-0142", "portland@bikeshop.example", "1150 SE Hawthorne Blvd", "Portland",
     "OR", "97214", dt.date(2017, 3, 1)),
]
CITIES = {
    "CA": ["Santa Cruz", "San Jose", "Campbell", "Capitola", "Watsonville", "Scotts Valley", "Monterey", "Gilroy"],
    "NY": ["Baldwin", "Freeport", "Hempstead", "Oceanside", "Rockville Centre", "Merrick", "Long Beach",
           "Brooklyn", "Queens"],
    "TX": ["Rowlett", "Garland", "Rockwall", "Dallas", "Sachse", "Wylie"],
    "OR": ["Portland", "Beaverton", "Gresham", "Lake Oswego", "Tigard"],
}
FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen",
         "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra", "Donald", "Ashley",
         "Steven", "Kimberly", "Andrew", "Emily", "Joshua", "Donna", "Kevin", "Michelle", "Brian", "Carol",
         "George", "Amanda", "Timothy", "Melissa", "Ronald", "Deborah", "Jason", "Stephanie", "Ryan", "Rebecca",
         "Jacob", "Laura", "Gary", "Sharon", "Nicholas", "Cynthia", "Eric", "Kathleen", "Jonathan", "Amy",
         "Luis", "Sofia", "Hiroshi", "Mei", "Priya", "Arjun", "Fatima", "Omar", "Ingrid", "Lars"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
        "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Tanaka",
        "Chen", "Patel", "Kowalski", "Olsen", "Haddad", "Okafor", "Novak", "Fischer", "Rossi"]
STREETS = ["Main St", "Oak Ave", "Pine St", "Maple Dr", "Cedar Ln", "Elm St", "Lake Rd", "Hill St", "Park Ave",
           "River Rd", "Sunset Blvd", "Church St", "Mill Rd", "Spring St", "Forest Ave"]
ZIPS = {"CA": (95001, 95099), "NY": (11501, 11599), "TX": (75030, 75099), "OR": (97201, 97299)}

# staff: id, first, last, active, store, manager, takes orders from / until (None = never takes orders)
STAFF = [
    (1, "Fabiola", "Mendes", 1, 1, None, None),
    (2, "Mireya", "Copeland", 1, 1, 1, None),
    (3, "Genna", "Serrano", 1, 1, 2, (START, END)),
    (4, "Virgie", "Wiggins", 1, 1, 2, (START, END)),
    (5, "Jannette", "David", 1, 2, 1, None),
    (6, "Marcelene", "Boyer", 1, 2, 5, (START, END)),
    (7, "Venita", "Daniel", 1, 2, 5, (START, END)),
    (8, "Kali", "Vargas", 1, 3, 1, (START, END)),
    (9, "Layla", "Terrell", 1, 3, 8, (START, END)),
    (10, "Bernardine", "Houston", 0, 3, 8, (START, dt.date(2017, 6, 30))),
    (11, "Dorian", "Bishop", 1, 4, 1, None),
    (12, "Tobias", "Reyes", 1, 4, 11, (dt.date(2017, 3, 1), END)),
    (13, "Anneke", "Larsen", 1, 4, 11, (dt.date(2017, 3, 1), END)),
    (14, "Quinn", "Albright", 1, 4, 11, None),  # hired in September 2018, no orders yet
    (15, "Hollis", "Park", 1, 2, 5, (dt.date(2017, 9, 1), END)),
]


def phone(rng, area):
    return f"({area}) {rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"


def generate():
    rng = random.Random(7)
    brands = [(i + 1, b) for i, b in enumerate(BRANDS)]
    brand_id = {b: i for i, b in brands}
    categories = [(i + 1, c[0], c[1]) for i, c in enumerate(CATEGORIES)]

    products, weight, first_year = [], {}, {}
    pid = 0
    for cid, (_name, line, (lo, hi), cbrands, stems) in enumerate(CATEGORIES, start=1):
        for stem in stems:
            brand = rng.choice(cbrands)
            base = rng.uniform(lo, hi)
            years = sorted(rng.sample([2016, 2017, 2018, 2019], rng.choice([1, 2, 2, 3])))
            for year in years:
                pid += 1
                price = round(base * (1 + 0.04 * (year - 2016)) / 10) * 10 - 0.01
                if price < 100:
                    price = round(base * (1 + 0.04 * (year - 2016))) - 0.01
                products.append((pid, f"{brand} {stem} - {year}", brand_id[brand], cid, year, round(price, 2)))
                w = rng.uniform(0.3, 3.0) * (2.5 if line == "Accessories" else 1.0)
                weight[pid] = w
                first_year[pid] = year - 1
    # a few new 2019 models that have not sold yet
    unsold = [p[0] for p in products if p[4] == 2019][:5]
    for p in unsold:
        weight[p] = 0.0
    price_of = {p[0]: p[5] for p in products}
    line_of = {p[0]: CATEGORIES[p[3] - 1][1] for p in products}

    stores = STORES
    staffs = []
    for sid, fn, ln, active, store, mgr, _ in STAFF:
        staffs.append((sid, fn, ln, f"{fn.lower()}.{ln.lower()}@bikeshop.example",
                       stores[store - 1][2], active, store, mgr))

    customers, by_state = [], {s: [] for s in CITIES}
    state_pick = ["CA"] * 30 + ["NY"] * 40 + ["TX"] * 15 + ["OR"] * 15
    area = {"CA": 831, "NY": 516, "TX": 972, "OR": 503}
    seen = set()
    for cid in range(1, 1446):
        state = rng.choice(state_pick)
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in seen:
                seen.add((fn, ln))
                break
        city = rng.choice(CITIES[state])
        customers.append((cid, fn, ln, phone(rng, area[state]) if rng.random() < 0.45 else None,
                          f"{fn.lower()}.{ln.lower()}{rng.randint(1, 99)}@{rng.choice(['gmail.com', 'yahoo.com', 'aol.com', 'msn.com', 'hotmail.com'])}",
                          f"{rng.randint(1, 9999)} {rng.choice(STREETS)}", city, state,
                          str(rng.randint(*ZIPS[state]))))
        by_state[state].append((cid, min(rng.paretovariate(2.2), 12.0)))

    store_state = {s[0]: s[6] for s in stores}
    base_rate = {1: 1.05, 2: 1.55, 3: 0.55, 4: 0.7}
    growth = {2016: 1.0, 2017: 1.12, 2018: 1.2}
    season = [0.6, 0.65, 0.9, 1.1, 1.3, 1.35, 1.35, 1.2, 1.0, 0.85, 0.75, 0.95]
    orders, items = [], []
    oid = 0
    day = START
    while day <= END:
        for store in (1, 2, 3, 4):
            if day < stores[store - 1][8]:
                continue
            lam = base_rate[store] * growth[day.year] * season[day.month - 1] * (1.25 if day.weekday() >= 5 else 1.0)
            n = 0
            while rng.random() < lam / (1 + lam) and n < 8:  # geometric, mean lam
                n += 1
            for _ in range(n):
                oid += 1
                # customer: mostly from the store's state
                state = store_state[store] if rng.random() < 0.93 else rng.choice(state_pick)
                pool = by_state[state]
                cust = rng.choices([c for c, _ in pool], weights=[w for _, w in pool])[0]
                takers = [s for s in STAFF if s[4] == store and s[6] and s[6][0] <= day <= s[6][1]]
                taker = rng.choice(takers)[0]
                required = day + dt.timedelta(days=rng.choice([1, 2, 2, 3, 3, 4]))
                age = (END - day).days
                if age < 12:
                    status = rng.choice([1, 1, 2, 2, 2])
                elif age < 25:
                    status = rng.choice([1, 2, 4, 4, 4, 4])
                else:
                    status = 3 if rng.random() < 0.035 else 4
                shipped = None
                if status == 4:
                    shipped = day + dt.timedelta(days=rng.choices([0, 1, 2, 3, 4, 5], [8, 25, 30, 20, 11, 6])[0])
                orders.append((oid, cust, status, day, required, shipped, store, taker))
                avail = [p for p in price_of if weight[p] > 0 and first_year[p] <= day.year <= first_year[p] + 2]
                nlines = rng.choices([1, 2, 3, 4, 5], [40, 30, 17, 9, 4])[0]
                chosen = []
                while len(chosen) < nlines:
                    p = rng.choices(avail, weights=[weight[a] for a in avail])[0]
                    if p not in chosen:
                        chosen.append(p)
                for item_id, p in enumerate(chosen, start=1):
                    qty = rng.choices([1, 2, 3], [70, 25, 5] if line_of[p] == "Bikes" else [55, 30, 15])[0]
                    disc = rng.choice([0.0, 0.0, 0.05, 0.05, 0.07, 0.1, 0.1, 0.2])
                    items.append((oid, item_id, p, qty, price_of[p], disc))
        day += dt.timedelta(days=1)

    stocks = []
    for store in (1, 2, 3, 4):
        for p in price_of:
            q = 0 if rng.random() < 0.14 else rng.randint(1, 30)
            stocks.append((store, p, q))
    return {"Brands": brands, "Categories": categories, "Products": products, "Stores": stores,
            "Staffs": staffs, "Customers": customers, "Orders": orders, "OrderItems": items, "Stocks": stocks}


def main() -> None:
    _common.ensure_venv()
    import psycopg
    from psycopg import sql

    tables = generate()
    _common.pg_create_database(DATABASE)
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}) as con:  # one transaction
        cur = con.cursor()
        cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        cur.execute(f"CREATE SCHEMA {SCHEMA}")
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Bicycle retail chain: sales 2016-01-01 .. 2018-09-30'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL(f'COMMENT ON TABLE {SCHEMA}."{table}" IS {{}}').format(sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f'COMMENT ON COLUMN {SCHEMA}."{table}"."{column}" IS {{}}').format(
                sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f'COPY {SCHEMA}."{table}" FROM STDIN') as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(f'SELECT count(*) FROM {SCHEMA}."{table}"')
            counts[f'{SCHEMA}."{table}"'] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded synthetic bike shop data (random.Random(7)) into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL,
                         f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()

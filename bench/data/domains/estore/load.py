#!/usr/bin/env python3
"""A synthetic online shop (orders 2023-01-01 .. 2025-06-30) on PostgreSQL, schema `sales`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_estore if missing, drops and rebuilds schema "sales", loads thirteen tables
generated deterministically with random.Random(23), and creates (or resets) the read-only login
role estore_reader / estore_reader. Idempotent: the same rows on every run.

Naming: grown over time, as real shops' are. Some tables are PascalCase and must be quoted
("Customer", "Category", "Product", "OrderLine", "Shipment", "ProductReview"), the rest are
snake_case (customer_address, brands, orders, payments, carriers, rma_requests, marketing_coupons).
Column names are mixed in the same way ("CustomerID", "createdAt", "ShipDate", unit_price, cust_id).
Primary keys are declared everywhere; foreign keys only on some tables (customer_address, "Product"
-> "Category", "OrderLine", "Shipment", "ProductReview" -> "Product"); the others are implied by
their names (orders.cust_id, orders.coupon_code, payments.order_id, "Shipment".carrier_id,
rma_requests.order_line_id, "ProductReview"."CustomerID", "Product".brand_id). There are exactly two
comments, both COMMENT ON COLUMN: orders.status (its codes) and "OrderLine".discount (a fraction).

  sales."Customer"            shopper accounts ("createdAt" = sign-up); about 3,500 never ordered
  sales.customer_address      shipping/billing addresses (0-3 per customer)
  sales."Category"            8 product categories
  sales.brands                26 brands
  sales."Product"             the catalogue: category, brand, current list price, active flag
  sales.orders                one row per order: cust_id, "createdAt", status code, coupon_code,
                              order_total (= sum of its lines after discount; there is no shipping fee)
  sales."OrderLine"           quantity, unit_price (price paid, before discount), discount (fraction)
  sales.payments              payment attempts: method, amount, "paidAt", payment_status
  sales.carriers              4 carriers
  sales."Shipment"            parcels: carrier, "ShipDate", "PromisedDate", "DeliveredDate" (NULL =
                              in transit); some orders ship in two parcels
  sales.rma_requests          returns (RMA = return merchandise authorization) of order lines: reason,
                              qty, refund
  sales."ProductReview"       star ratings 1-5
  sales.marketing_coupons     coupon codes, campaign, pct_off, validity window
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_estore", "sales", "estore_reader"
URL = "postgresql://estore_reader:estore_reader@127.0.0.1:5432/dev_estore"
SEED = 23
FIRST_DAY, LAST_DAY = dt.date(2023, 1, 1), dt.date(2025, 6, 30)   # LAST_DAY = the extract date
N_CUSTOMERS = 18000

DDL = [
    """CREATE TABLE sales."Customer" (
        "CustomerID" integer PRIMARY KEY,
        "FirstName" varchar(40) NOT NULL,
        "LastName" varchar(40) NOT NULL,
        "Email" varchar(120) NOT NULL UNIQUE,
        "createdAt" timestamp NOT NULL,
        "MarketingOptIn" boolean NOT NULL)""",
    """CREATE TABLE sales.customer_address (
        address_id integer PRIMARY KEY,
        customer_id integer NOT NULL REFERENCES sales."Customer" ("CustomerID"),
        address_type varchar(10) NOT NULL,
        line1 varchar(80) NOT NULL,
        city varchar(40) NOT NULL,
        state char(2) NOT NULL,
        postal_code varchar(10) NOT NULL,
        is_default boolean NOT NULL)""",
    """CREATE TABLE sales."Category" (
        "CategoryId" integer PRIMARY KEY,
        "CategoryName" varchar(40) NOT NULL)""",
    """CREATE TABLE sales.brands (
        brand_id integer PRIMARY KEY,
        brand_name varchar(40) NOT NULL,
        hq_country varchar(20) NOT NULL)""",
    """CREATE TABLE sales."Product" (
        "ProductId" integer PRIMARY KEY,
        sku varchar(16) NOT NULL UNIQUE,
        "ProductName" varchar(80) NOT NULL,
        "CategoryId" integer NOT NULL REFERENCES sales."Category" ("CategoryId"),
        brand_id integer NOT NULL,
        list_price numeric(8, 2) NOT NULL,
        "IsActive" boolean NOT NULL,
        "launchedOn" date NOT NULL)""",
    """CREATE TABLE sales.marketing_coupons (
        coupon_id integer PRIMARY KEY,
        code varchar(20) NOT NULL UNIQUE,
        campaign varchar(40) NOT NULL,
        pct_off smallint NOT NULL,
        "validFrom" date NOT NULL,
        "validTo" date)""",
    """CREATE TABLE sales.orders (
        order_id integer PRIMARY KEY,
        cust_id integer NOT NULL,
        "createdAt" timestamp NOT NULL,
        status char(1) NOT NULL,
        channel varchar(10) NOT NULL,
        coupon_code varchar(20),
        ship_address_id integer,
        order_total numeric(10, 2) NOT NULL)""",
    """CREATE TABLE sales."OrderLine" (
        "OrderLineId" integer PRIMARY KEY,
        order_id integer NOT NULL REFERENCES sales.orders (order_id),
        "ProductId" integer NOT NULL REFERENCES sales."Product" ("ProductId"),
        quantity smallint NOT NULL,
        unit_price numeric(8, 2) NOT NULL,
        discount numeric(4, 2) NOT NULL DEFAULT 0)""",
    """CREATE TABLE sales.payments (
        payment_id integer PRIMARY KEY,
        order_id integer NOT NULL,
        method varchar(12) NOT NULL,
        amount numeric(10, 2) NOT NULL,
        "paidAt" timestamp NOT NULL,
        payment_status varchar(10) NOT NULL)""",
    """CREATE TABLE sales.carriers (
        carrier_id integer PRIMARY KEY,
        carrier_name varchar(40) NOT NULL,
        service varchar(20) NOT NULL)""",
    """CREATE TABLE sales."Shipment" (
        "ShipmentId" integer PRIMARY KEY,
        "OrderId" integer NOT NULL REFERENCES sales.orders (order_id),
        carrier_id integer NOT NULL,
        "ShipDate" date NOT NULL,
        "PromisedDate" date NOT NULL,
        "DeliveredDate" date,
        tracking_no varchar(24) NOT NULL)""",
    """CREATE TABLE sales.rma_requests (
        rma_id integer PRIMARY KEY,
        order_line_id integer NOT NULL,
        "requestedAt" timestamp NOT NULL,
        reason varchar(30) NOT NULL,
        qty smallint NOT NULL,
        refund_amt numeric(10, 2) NOT NULL,
        rma_status varchar(10) NOT NULL)""",
    """CREATE TABLE sales."ProductReview" (
        "ReviewId" integer PRIMARY KEY,
        "ProductId" integer NOT NULL REFERENCES sales."Product" ("ProductId"),
        "CustomerID" integer NOT NULL,
        "Stars" smallint NOT NULL,
        "reviewDate" date NOT NULL,
        "Title" varchar(80),
        "VerifiedPurchase" boolean NOT NULL)""",
]
COLUMN_COMMENTS = {  # the only two comments in the schema
    ("orders", "status"): "P = placed (not shipped yet), S = shipped, D = delivered, X = cancelled",
    ('"OrderLine"', "discount"): "fraction off unit_price, 0.15 = 15% off",
}

CATEGORIES = [  # id, name, units weight, return base rate
    (1, "Electronics", 14, 0.050),
    (2, "Home & Kitchen", 18, 0.040),
    (3, "Apparel", 19, 0.125),
    (4, "Sports & Outdoors", 10, 0.045),
    (5, "Beauty", 15, 0.030),
    (6, "Toys & Games", 8, 0.035),
    (7, "Books", 9, 0.015),
    (8, "Pet Supplies", 8, 0.030),
]
BRANDS = [  # id, name, country, category, popularity within category, review quality, return factor
    (1, "Voltix", "China", 1, 1.8, 3.0, 3.8),
    (2, "Lumora", "South Korea", 1, 1.0, 4.1, 1.0),
    (3, "Sonique", "Denmark", 1, 0.9, 4.0, 1.0),
    (4, "Kestrel Tech", "USA", 1, 0.8, 3.9, 1.0),
    (5, "Hearthstone", "USA", 2, 1.1, 4.75, 0.7),
    (6, "Casa Verde", "Italy", 2, 1.0, 4.0, 1.0),
    (7, "Brightbake", "USA", 2, 0.9, 3.8, 1.1),
    (8, "Nestwell", "Canada", 2, 1.0, 4.1, 1.0),
    (9, "Northloom", "USA", 3, 1.0, 3.9, 1.0),
    (10, "Urban Thread", "USA", 3, 1.1, 3.7, 1.1),
    (11, "Fernway", "UK", 3, 0.9, 4.0, 0.9),
    (12, "Tidewear", "Portugal", 3, 0.8, 3.8, 1.0),
    (13, "Kinfolk & Co", "USA", 3, 0.9, 4.1, 0.9),
    (14, "Trailpeak", "USA", 4, 1.0, 4.2, 1.0),
    (15, "Apex Motion", "Germany", 4, 1.0, 3.9, 1.0),
    (16, "Riverstone Outfitters", "Canada", 4, 0.8, 4.0, 1.0),
    (17, "Glowhaus", "France", 5, 1.1, 4.0, 1.0),
    (18, "Pure Petal", "USA", 5, 1.0, 4.2, 0.9),
    (19, "Velvet Ritual", "South Korea", 5, 0.9, 3.8, 1.1),
    (20, "Brickhaven", "Denmark", 6, 1.0, 4.3, 0.8),
    (21, "Little Comet", "USA", 6, 0.9, 3.9, 1.1),
    (22, "Puzzlewood", "UK", 6, 0.8, 4.1, 0.9),
    (23, "Inkwell Press", "USA", 7, 1.0, 4.2, 1.0),
    (24, "Harbor Lane Books", "USA", 7, 1.0, 4.1, 1.0),
    (25, "Pawsome", "USA", 8, 1.1, 4.0, 1.0),
    (26, "Tailwind Pet", "USA", 8, 0.9, 3.9, 1.0),
]
NOUNS = {  # category -> (noun, low price, high price)
    1: [("Wireless Earbuds", 39, 179), ("Bluetooth Speaker", 29, 249), ("Smartwatch", 99, 399),
        ("27in 4K Monitor", 249, 599), ("USB-C Hub", 25, 79), ("Mechanical Keyboard", 59, 189),
        ("Noise-Cancelling Headphones", 129, 399), ("Power Bank", 19, 69), ("HD Webcam", 39, 129),
        ("10in Tablet", 149, 499), ("Gaming Mouse", 29, 99), ("Soundbar", 119, 449), ("Action Camera", 149, 399),
        ("Smart Plug 2-Pack", 15, 35), ("Robot Vacuum", 199, 649), ("E-Reader", 99, 229)],
    2: [("Chef's Knife", 29, 149), ("Cast Iron Skillet", 25, 89), ("Stand Mixer", 199, 449),
        ("Air Fryer", 79, 199), ("Coffee Grinder", 29, 129), ("Linen Sheet Set", 69, 219),
        ("Dutch Oven", 59, 299), ("Cutting Board", 19, 69), ("Pour-Over Kettle", 35, 99),
        ("Bath Towel Set", 29, 99), ("Glass Storage Set", 24, 59), ("Blender", 49, 249),
        ("Throw Blanket", 29, 119), ("Table Lamp", 39, 149)],
    3: [("Crew Neck Tee", 14, 39), ("Slim Fit Jeans", 39, 119), ("Hooded Sweatshirt", 35, 89),
        ("Rain Jacket", 59, 189), ("Merino Sweater", 59, 149), ("Chino Pants", 35, 89),
        ("Wrap Dress", 39, 129), ("Running Shorts", 19, 49), ("Puffer Vest", 49, 139),
        ("Oxford Shirt", 29, 79), ("Wool Socks 3-Pack", 14, 29), ("Canvas Sneakers", 39, 99),
        ("Leather Belt", 19, 69), ("Beanie", 12, 35)],
    4: [("Yoga Mat", 19, 89), ("2-Person Tent", 99, 349), ("Trekking Poles", 29, 129),
        ("Insulated Water Bottle", 19, 45), ("Adjustable Dumbbells", 99, 399), ("Daypack 24L", 45, 149),
        ("Sleeping Bag", 59, 249), ("Resistance Bands Set", 12, 39), ("Camping Stove", 35, 129),
        ("Foam Roller", 15, 49), ("Headlamp", 15, 59), ("Cycling Helmet", 39, 159)],
    5: [("Vitamin C Serum", 14, 59), ("Daily Moisturizer", 12, 49), ("Mineral Sunscreen SPF 50", 10, 34),
        ("Hydrating Cleanser", 9, 29), ("Lip Balm Trio", 6, 18), ("Eau de Parfum", 39, 129),
        ("Sheet Mask 10-Pack", 12, 32), ("Retinol Night Cream", 19, 69), ("Hair Repair Oil", 14, 44),
        ("Makeup Brush Set", 15, 59), ("Shampoo Bar", 8, 16), ("Body Lotion", 9, 29)],
    6: [("Building Brick Set", 19, 149), ("Wooden Puzzle 1000pc", 15, 39), ("Plush Bear", 12, 35),
        ("Board Game", 19, 59), ("RC Car", 29, 119), ("Art Easel", 39, 99), ("Card Game", 9, 24),
        ("Marble Run", 25, 79), ("Doll House", 59, 189), ("Science Kit", 19, 59)],
    7: [("Mystery Novel", 9, 24), ("Cookbook", 18, 40), ("Travel Guide", 14, 29), ("Sci-Fi Novel", 9, 24),
        ("Kids Picture Book", 8, 19), ("Business Handbook", 16, 35), ("Poetry Collection", 10, 22),
        ("Historical Biography", 14, 34), ("Gardening Guide", 15, 32), ("Graphic Novel", 12, 29)],
    8: [("Dog Bed", 29, 129), ("Cat Tree", 49, 179), ("Grain-Free Dog Food 12lb", 25, 65),
        ("Cat Litter 20lb", 12, 29), ("Chew Toy 3-Pack", 8, 22), ("Dog Harness", 15, 49),
        ("Pet Water Fountain", 25, 59), ("Salmon Cat Treats", 5, 14), ("Grooming Brush", 9, 29),
        ("Travel Crate", 45, 149)],
}
SUFFIXES = {  # category -> model / variant endings of product names
    1: ["", " Pro", " Mini", " Max", " Lite", " 2", " X", " Plus", " Gen 2"],
    2: ["", " Classic", " Deluxe", " Plus", " Essential", " Pro", " Compact"],
    3: [" - Navy", " - Black", " - Olive", " - Heather Grey", " - White", " - Sand", " - Burgundy"],
    4: ["", " Pro", " Lite", " Trail", " Ultralight", " Classic", " XL"],
    5: ["", " 30ml", " 50ml", " Travel Size", " Sensitive", " Fragrance-Free"],
    6: ["", " Deluxe", " Junior", " Classic", " Family Edition"],
    7: ["", " (Hardcover)", " (Paperback)", " Vol. 2", " 2nd Edition"],
    8: ["", " Small", " Medium", " Large", " XL"],
}
CARRIERS = [  # id, name, service, promised transit days, typical transit (mean), late rate, weight
    (1, "UPS", "Ground", 4, 3.0, 0.05, 34),
    (2, "FedEx", "Home Delivery", 3, 2.5, 0.05, 26),
    (3, "USPS", "Priority Mail", 3, 2.7, 0.08, 24),
    (4, "ParcelNova", "Economy", 5, 4.6, 0.36, 16),
]
COUPONS = [  # id, code, campaign, pct, from, to, use probability inside the window
    (1, "WELCOME10", "Welcome", 10, dt.date(2023, 1, 1), None, 0.0),
    (2, "SPRING23", "Spring Sale", 15, dt.date(2023, 3, 20), dt.date(2023, 4, 9), 0.45),
    (3, "SUMMER23", "Summer Sale", 20, dt.date(2023, 7, 10), dt.date(2023, 7, 23), 0.55),
    (4, "BF23", "Black Friday", 25, dt.date(2023, 11, 24), dt.date(2023, 11, 26), 0.70),
    (5, "CYBER23", "Cyber Monday", 20, dt.date(2023, 11, 27), dt.date(2023, 11, 27), 0.65),
    (6, "HOLIDAY23", "Holiday Gifts", 15, dt.date(2023, 12, 4), dt.date(2023, 12, 17), 0.40),
    (7, "NEWYEAR24", "New Year", 10, dt.date(2024, 1, 1), dt.date(2024, 1, 7), 0.35),
    (8, "SPRING24", "Spring Sale", 15, dt.date(2024, 3, 18), dt.date(2024, 4, 7), 0.45),
    (9, "SUMMER24", "Summer Sale", 20, dt.date(2024, 7, 8), dt.date(2024, 7, 21), 0.55),
    (10, "BF24", "Black Friday", 25, dt.date(2024, 11, 29), dt.date(2024, 12, 1), 0.70),
    (11, "CYBER24", "Cyber Monday", 20, dt.date(2024, 12, 2), dt.date(2024, 12, 2), 0.65),
    (12, "HOLIDAY24", "Holiday Gifts", 15, dt.date(2024, 12, 5), dt.date(2024, 12, 18), 0.40),
    (13, "NEWYEAR25", "New Year", 10, dt.date(2025, 1, 1), dt.date(2025, 1, 7), 0.35),
    (14, "SPRING25", "Spring Sale", 15, dt.date(2025, 3, 17), dt.date(2025, 4, 6), 0.45),
    (15, "VIP15", "Loyalty", 15, dt.date(2023, 6, 1), None, 0.0),
    (16, "SORRY20", "Service Recovery", 20, dt.date(2023, 1, 1), None, 0.0),
    (17, "PODCAST12", "Podcast Sponsorship", 12, dt.date(2024, 9, 1), dt.date(2024, 10, 31), 0.0),
    (18, "SUMMER25", "Summer Sale", 20, dt.date(2025, 7, 7), dt.date(2025, 7, 20), 0.0),  # not started yet
]
RETURN_REASONS = {
    "default": (["Changed mind", "Arrived damaged", "Not as described", "Defective", "Wrong item sent",
                 "Arrived too late"], [30, 18, 20, 16, 8, 8]),
    1: (["Defective", "Changed mind", "Not as described", "Arrived damaged", "Wrong item sent",
         "Arrived too late"], [40, 20, 15, 14, 5, 6]),
    3: (["Wrong size", "Changed mind", "Not as described", "Arrived damaged", "Wrong item sent",
         "Arrived too late"], [55, 18, 14, 5, 4, 4]),
}
FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia", "Lucas", "Amelia",
         "Mateo", "Harper", "Ethan", "Aria", "Daniel", "Chloe", "Henry", "Layla", "Jack", "Nora", "Owen",
         "Grace", "Leo", "Zoe", "Samuel", "Hannah", "David", "Maya", "Joseph", "Ellie", "Carter", "Ruby",
         "Wei", "Priya", "Diego", "Fatima", "Kenji", "Sofia", "Andre", "Nadia", "Tomas", "Leila", "Isaac",
         "Caleb", "Lily", "Gabriel", "Stella", "Julian", "Violet", "Aaron", "Hazel", "Miles", "Aurora",
         "Ryan", "Savannah", "Adrian", "Brooklyn", "Nathan", "Claire", "Marcus", "Ivy", "Oscar", "Jade",
         "Felix", "Naomi", "Hugo", "Elena", "Rafael", "Anya", "Omar", "Keiko", "Luis", "Amara"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Nguyen", "Kim", "Chen", "Walker", "Hall", "Young", "Allen", "King", "Wright",
        "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Ortiz",
        "Singh", "Okafor", "Haddad", "Larsen", "Novak", "Yamamoto", "Petrov", "O'Brien", "Fischer",
        "Carter", "Phillips", "Evans", "Turner", "Torres", "Parker", "Collins", "Edwards", "Stewart",
        "Morris", "Murphy", "Cook", "Rogers", "Morgan", "Peterson", "Cooper", "Reed", "Bailey", "Bell",
        "Gomez", "Kelly", "Howard", "Ward", "Cox", "Diaz", "Richardson", "Wood", "Watson", "Brooks",
        "Bennett", "Gray", "James", "Reyes", "Cruz", "Hughes", "Price", "Myers", "Long", "Foster"]
STATES = [("CA", 12), ("TX", 9), ("NY", 7), ("FL", 7), ("IL", 4), ("PA", 4), ("OH", 4), ("GA", 3.5),
          ("NC", 3.5), ("MI", 3), ("WA", 3), ("MA", 2.5), ("CO", 2.5), ("AZ", 2.5), ("OR", 2), ("VA", 3),
          ("NJ", 3), ("MN", 2), ("TN", 2), ("WI", 2)]
CITIES = {"CA": ["Los Angeles", "San Diego", "San Jose", "Oakland", "Sacramento"],
          "TX": ["Houston", "Austin", "Dallas", "San Antonio"], "NY": ["New York", "Brooklyn", "Buffalo"],
          "FL": ["Miami", "Orlando", "Tampa"], "IL": ["Chicago", "Evanston"], "PA": ["Philadelphia", "Pittsburgh"],
          "OH": ["Columbus", "Cleveland"], "GA": ["Atlanta", "Savannah"], "NC": ["Charlotte", "Raleigh"],
          "MI": ["Detroit", "Ann Arbor"], "WA": ["Seattle", "Spokane"], "MA": ["Boston", "Cambridge"],
          "CO": ["Denver", "Boulder"], "AZ": ["Phoenix", "Tucson"], "OR": ["Portland", "Eugene"],
          "VA": ["Richmond", "Arlington"], "NJ": ["Newark", "Jersey City"], "MN": ["Minneapolis", "St Paul"],
          "TN": ["Nashville", "Memphis"], "WI": ["Milwaukee", "Madison"]}
STREETS = ["Oak", "Maple", "Cedar", "Pine", "Elm", "Main", "Lake", "Hill", "Park", "Washington", "Sunset",
           "River", "Highland", "Willow", "Church", "Mill", "Spring", "Ridge", "Forest", "Meadow"]
REVIEW_TITLES = {1: ["Very disappointed", "Broke after a week", "Would not buy again", "Waste of money"],
                 2: ["Not great", "Meh", "Expected better", "Had issues"],
                 3: ["It's okay", "Decent for the price", "Average", "Does the job"],
                 4: ["Pretty good", "Happy with it", "Solid purchase", "Good value"],
                 5: ["Love it!", "Excellent", "Perfect", "Best purchase this year", "Highly recommend"]}


def season(d: dt.date) -> float:
    """Relative order intensity of a day (holiday peak, Black Friday weekend, a slow January)."""
    m = d.month
    s = {1: 0.8, 2: 0.82, 3: 0.95, 4: 0.95, 5: 1.0, 6: 0.98, 7: 1.05, 8: 1.0, 9: 0.95, 10: 1.05,
         11: 1.45, 12: 1.55}[m]
    for _, _, _, _, start, end, use in COUPONS:
        if end is not None and use > 0.5 and start <= d <= end:
            s *= 2.0   # Black Friday / Cyber Monday / summer sale spikes
    return s


SEASON_MAX = 1.55 * 2.0


def build():
    r = random.Random(SEED)
    extract = LAST_DAY
    n_days = (LAST_DAY - FIRST_DAY).days + 1

    # ---- catalogue
    categories = [(cid, name) for cid, name, *_ in CATEGORIES]
    cat_units = {cid: w for cid, _, w, _ in CATEGORIES}
    cat_return = {cid: rr for cid, _, _, rr in CATEGORIES}
    brands = [(bid, name, country) for bid, name, country, *_ in BRANDS]
    brand_info = {b[0]: dict(cat=b[3], pop=b[4], quality=b[5], ret=b[6]) for b in BRANDS}
    products, prod = [], {}
    names_used = set()
    pid = 0
    for bid, bname, _, cid, _pop, _, _ in BRANDS:
        n = r.randint(9, 16)
        nouns = r.sample(NOUNS[cid], k=min(n, len(NOUNS[cid])))
        while len(nouns) < n:
            nouns.append(r.choice(NOUNS[cid]))
        for noun, lo, hi in nouns:
            for _ in range(50):
                name = f"{bname} {noun}{r.choice(SUFFIXES[cid])}"
                if name not in names_used:
                    break
            names_used.add(name)
            pid += 1
            base = round(r.uniform(lo, hi)) - 0.01
            launched = dt.date(2021, 1, 1) + dt.timedelta(days=r.randint(0, 700))
            if r.random() < 0.18:
                launched = FIRST_DAY + dt.timedelta(days=r.randint(30, n_days - 20))
            discontinued = None
            if r.random() < 0.06 and launched < dt.date(2024, 1, 1):
                discontinued = dt.date(2024, 9, 1) + dt.timedelta(days=r.randint(0, 120))
            raise_on = dt.date(2024, 3, 1) + dt.timedelta(days=r.randint(0, 90)) if r.random() < 0.45 else None
            raised = round(base * r.uniform(1.04, 1.12)) - 0.01 if raise_on else base
            if raised <= base:
                raised = base + 1.0 if raise_on else base
            sku = f"{bname[:3].upper().replace(' ', 'X')}-{cid}{pid:04d}"
            prod[pid] = dict(cat=cid, brand=bid, base=base, raised=raised, raise_on=raise_on, launched=launched,
                             disc=discontinued, w=r.paretovariate(1.6))
            products.append([pid, sku, name, cid, bid, raised, discontinued is None, launched])
    # two brand-new products that have not sold yet
    for bid, noun, price in [(2, "Wireless Earbuds Gen 3", 149.99), (14, "Ultralight Tent 1P", 279.99)]:
        pid += 1
        bname = next(b[1] for b in BRANDS if b[0] == bid)
        cid = brand_info[bid]["cat"]
        products.append([pid, f"{bname[:3].upper()}-{cid}{pid:04d}", f"{bname} {noun}", cid, bid, price, True,
                         dt.date(2025, 7, 1)])
    by_cat = {cid: [p for p, i in prod.items() if i["cat"] == cid] for cid in cat_units}

    def price_on(p, d):
        i = prod[p]
        return i["raised"] if i["raise_on"] and d >= i["raise_on"] else i["base"]

    def pick_product(d):
        for _ in range(100):
            cid = r.choices(list(cat_units), weights=list(cat_units.values()))[0]
            cands = by_cat[cid]
            p = r.choices(cands, weights=[prod[c]["w"] * brand_info[prod[c]["brand"]]["pop"] for c in cands])[0]
            i = prod[p]
            if i["launched"] <= d and (i["disc"] is None or d < i["disc"]):
                return p
        raise RuntimeError("no product")

    # ---- coupons
    coupons = [(cid, code, camp, pct, start, end) for cid, code, camp, pct, start, end, _ in COUPONS]
    windows = [(code, pct, start, end, use) for _, code, _, pct, start, end, use in COUPONS if use > 0]
    pct_of = {code: pct for _, code, _, pct, *_ in COUPONS}

    # ---- customers and addresses
    customers, addresses, cust = [], [], []
    day_w = [1.0 + 0.9 * k / n_days for k in range(n_days)]
    emails = set()
    aid = 0
    state_names, state_w = zip(*STATES)
    for cid in range(1, N_CUSTOMERS + 1):
        while True:
            first, last = r.choice(FIRST), r.choice(LAST)
            if (first, last) != ("Emma", "Johnson"):
                break
        day = FIRST_DAY + dt.timedelta(days=r.choices(range(n_days), weights=day_w)[0])
        created = dt.datetime.combine(day, dt.time(0)) + dt.timedelta(seconds=r.randint(6 * 3600, 86399))
        base = f"{first}.{last}".lower().replace("'", "")
        email = f"{base}@{r.choice(['gmail.com', 'gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'proton.me'])}"
        k = 1
        while email in emails:
            k += 1
            email = f"{base}{k}@{email.split('@')[1]}"
        emails.add(email)
        customers.append([cid, first, last, email, created, r.random() < 0.42])
        ghost = r.random() < 0.19
        one_timer = r.random() < 0.42
        rate = 0.0 if one_timer else r.lognormvariate(math.log(2.6), 0.75)
        cust.append(dict(id=cid, created=created, ghost=ghost, rate=rate, addrs=[]))
    # two different customers called Emma Johnson (Austin TX and Columbus OH), both ordering in May 2025
    for first_day, state, city in [(dt.datetime(2023, 8, 14, 19, 22, 5), "TX", "Austin"),
                                   (dt.datetime(2024, 10, 2, 9, 41, 37), "OH", "Columbus")]:
        cid = len(customers) + 1
        email = f"emma.johnson{'' if state == 'TX' else '84'}@{'gmail.com' if state == 'TX' else 'yahoo.com'}"
        customers.append([cid, "Emma", "Johnson", email, first_day, True])
        cust.append(dict(id=cid, created=first_day, ghost=False, rate=3.0, addrs=[], fixed=(state, city)))

    for c in cust:
        n_addr = 0 if (c["ghost"] and r.random() < 0.6) else r.choices([1, 2, 3], weights=[70, 24, 6])[0]
        if "fixed" in c:
            n_addr = 1
        for j in range(n_addr):
            aid += 1
            if "fixed" in c:
                state, city = c["fixed"]
            else:
                state = r.choices(state_names, weights=state_w)[0]
                city = r.choice(CITIES[state])
            addresses.append([aid, c["id"], "shipping" if j < 2 else "billing",
                              f"{r.randint(10, 9899)} {r.choice(STREETS)} {r.choice(['St', 'Ave', 'Rd', 'Blvd', 'Ln', 'Dr'])}",
                              city, state, f"{r.randint(10000, 99999)}", j == 0])
            if j < 2:
                c["addrs"].append(aid)

    # ---- order times per customer
    order_plan = []  # (datetime, customer dict)
    end_dt = dt.datetime.combine(LAST_DAY, dt.time(23, 59, 59))
    for c in cust:
        if c["ghost"]:
            continue
        if "fixed" in c:
            times = [c["created"] + dt.timedelta(days=3, hours=2)]
            t = times[0]
            while True:
                t += dt.timedelta(days=r.expovariate(c["rate"] / 365.0))
                if t > dt.datetime(2025, 4, 30):
                    break
                times.append(t)
            times.append(dt.datetime(2025, 5, 6 if c["fixed"][0] == "TX" else 19, 20, 15, 0)
                         + dt.timedelta(minutes=r.randint(0, 300)))
            order_plan.extend((tt, c) for tt in times)
            continue
        first = c["created"] + dt.timedelta(minutes=r.randint(3, 90)) if r.random() < 0.45 \
            else c["created"] + dt.timedelta(days=r.expovariate(1 / 9.0))
        if first > end_dt:
            continue
        order_plan.append((first, c))
        if c["rate"] <= 0:
            continue
        t = first
        lam = c["rate"] * SEASON_MAX / 365.0
        while True:
            t += dt.timedelta(days=r.expovariate(lam))
            if t > end_dt:
                break
            if r.random() < season(t.date()) / SEASON_MAX:
                order_plan.append((t, c))
    order_plan.sort(key=lambda x: (x[0], x[1]["id"]))

    # ---- orders, lines, payments, shipments, returns, reviews
    orders, lines, payments, shipments, rmas, reviews = [], [], [], [], [], []
    seen = set()
    oid = lid = payid = shid = rmaid = revid = 0
    carrier_ids = [c[0] for c in CARRIERS]
    carrier_w = [c[6] for c in CARRIERS]
    carrier = {c[0]: c for c in CARRIERS}
    methods, method_w = ["card", "paypal", "apple_pay", "gift_card"], [62, 20, 12, 6]
    vip = {c["id"] for c in cust if c["rate"] > 6}
    for when, c in order_plan:
        oid += 1
        # time of day: shift to evenings
        d = when.date()
        evening = dt.datetime.combine(d, dt.time(0)) + dt.timedelta(
            seconds=int(min(86399, max(0, r.gauss(19.5, 3.5) * 3600))))
        if r.random() < 0.7 and evening > c["created"]:
            when = evening
        if when > end_dt:
            when = end_dt - dt.timedelta(minutes=r.randint(1, 600))
        d = when.date()
        first_order = c["id"] not in seen
        seen.add(c["id"])
        coupon = None
        if first_order and r.random() < 0.30:
            coupon = "WELCOME10"
        else:
            for code, _pct, start, end, use in windows:
                if start <= d <= end and r.random() < use:
                    coupon = code
                    break
            if coupon is None and c["id"] in vip and d >= dt.date(2023, 6, 1) and r.random() < 0.25:
                coupon = "VIP15"
            elif coupon is None and dt.date(2024, 9, 1) <= d <= dt.date(2024, 10, 31) and r.random() < 0.03:
                coupon = "PODCAST12"
            elif coupon is None and r.random() < 0.006:
                coupon = "SORRY20"
        n_lines = r.choices([1, 2, 3, 4, 5], weights=[50, 28, 13, 6, 3])[0]
        picked = []
        while len(picked) < n_lines:
            p = pick_product(d)
            if p not in picked:
                picked.append(p)
        cancelled = r.random() < 0.04
        order_lines = []
        total = 0.0
        for p in picked:
            lid += 1
            price = price_on(p, d)
            qty = r.choices([1, 2, 3, 4], weights=[78, 15, 5, 2])[0] if price < 40 else \
                r.choices([1, 2], weights=[93, 7])[0]
            disc = pct_of[coupon] / 100 if coupon else 0.0
            if not coupon and r.random() < 0.07:
                disc = r.choice([0.05, 0.10, 0.20, 0.30])  # clearance markdown
            net = qty * price * (1 - disc)
            total += net
            order_lines.append([lid, oid, p, qty, price, disc])
        lines.extend(order_lines)
        total = round(total + 1e-9, 2)
        channel = r.choices(["web", "app", "web"], weights=[55, 35, 10])[0]
        addr = r.choice(c["addrs"]) if c["addrs"] else None
        # payments
        pay_at = when + dt.timedelta(seconds=r.randint(2, 40))
        if r.random() < 0.025:
            payid += 1
            payments.append([payid, oid, "card", total, pay_at, "failed"])
            pay_at += dt.timedelta(seconds=r.randint(30, 300))
        method = r.choices(methods, weights=method_w)[0]
        if method == "gift_card" and total > 30:
            gc = round(min(total - 5, r.choice([25, 50, 100])), 2)
            payid += 1
            payments.append([payid, oid, "gift_card", gc, pay_at, "refunded" if cancelled else "captured"])
            payid += 1
            payments.append([payid, oid, "card", round(total - gc, 2), pay_at + dt.timedelta(seconds=1),
                             "refunded" if cancelled else "captured"])
        else:
            payid += 1
            payments.append([payid, oid, method, total, pay_at, "refunded" if cancelled else "captured"])
        if cancelled:
            orders.append([oid, c["id"], when, "X", channel, coupon, addr, total])
            continue
        # shipments
        ship_day = d + dt.timedelta(days=r.choices([0, 1, 2, 3, 4], weights=[22, 40, 22, 11, 5])[0])
        if ship_day > extract:
            orders.append([oid, c["id"], when, "P", channel, coupon, addr, total])
            continue
        parcels = [ship_day]
        if n_lines >= 2 and r.random() < 0.08:
            parcels.append(ship_day + dt.timedelta(days=r.randint(1, 6)))
        delivered_all = True
        last_delivery = None
        for sd in parcels:
            if sd > extract:
                delivered_all = False
                continue
            cr = r.choices(carrier_ids, weights=carrier_w)[0]
            _, _, _, promised_days, mean_days, late_rate, _ = carrier[cr]
            promised = sd + dt.timedelta(days=promised_days)
            if r.random() < late_rate:
                transit = promised_days + r.choices([1, 2, 3, 4, 6, 9], weights=[35, 25, 15, 10, 10, 5])[0]
            else:
                transit = max(1, min(promised_days, int(round(r.gauss(mean_days, 0.8)))))
            delivered = sd + dt.timedelta(days=transit)
            if delivered > extract:
                delivered = None
                delivered_all = False
            else:
                last_delivery = max(last_delivery or delivered, delivered)
            shid += 1
            shipments.append([shid, oid, cr, sd, promised, delivered,
                              f"{'1Z' if cr == 1 else 'PN' if cr == 4 else ''}{r.randint(10**11, 10**12 - 1)}"])
        status = "D" if delivered_all else "S"
        orders.append([oid, c["id"], when, status, channel, coupon, addr, total])
        if status != "D":
            continue
        late_order = any(s[5] is not None and s[5] > s[4] for s in shipments[-len(parcels):])
        for lid_, _, p, qty, price, disc in order_lines:
            i = prod[p]
            b = brand_info[i["brand"]]
            p_ret = cat_return[i["cat"]] * b["ret"] * (1.4 if late_order else 1.0)
            returned = r.random() < p_ret
            if returned:
                req = dt.datetime.combine(last_delivery, dt.time(0)) + dt.timedelta(
                    days=r.randint(1, 30), seconds=r.randint(7 * 3600, 23 * 3600))
                if req.date() <= extract:
                    reasons, rw = RETURN_REASONS.get(i["cat"], RETURN_REASONS["default"])
                    reason = r.choices(reasons, weights=rw)[0]
                    if late_order and r.random() < 0.3:
                        reason = "Arrived too late"
                    if i["brand"] == 1 and r.random() < 0.5:
                        reason = "Defective"
                    q = qty if qty == 1 or r.random() < 0.6 else r.randint(1, qty - 1)
                    age = (extract - req.date()).days
                    st = "requested" if age < 5 else ("received" if age < 12 else "refunded")
                    rmaid += 1
                    rmas.append([rmaid, lid_, req, reason, q, round(q * price * (1 - disc) + 1e-9, 2), st])
                else:
                    returned = False
            if r.random() < (0.13 if not returned else 0.30):
                rd = last_delivery + dt.timedelta(days=r.randint(2, 45))
                if rd > extract:
                    continue
                stars = int(round(r.gauss(b["quality"] - (1.6 if returned else 0) - (0.3 if late_order else 0), 0.95)))
                stars = min(5, max(1, stars))
                revid += 1
                reviews.append([revid, p, c["id"], stars, rd, r.choice(REVIEW_TITLES[stars]) if r.random() < 0.8 else None,
                                True])
    # a few unverified reviews (people who did not buy the product here)
    all_pids = [p for p in prod]
    for _ in range(int(len(reviews) * 0.04)):
        p = r.choice(all_pids)
        b = brand_info[prod[p]["brand"]]
        rd = max(prod[p]["launched"], FIRST_DAY) + dt.timedelta(days=r.randint(0, 400))
        if rd > extract:
            continue
        stars = min(5, max(1, int(round(r.gauss(b["quality"] - 0.3, 1.3)))))
        revid += 1
        reviews.append([revid, p, r.randint(1, N_CUSTOMERS), stars, rd, r.choice(REVIEW_TITLES[stars]), False])
    reviews.sort(key=lambda x: (x[4], x[0]))
    reviews = [[k + 1, *row[1:]] for k, row in enumerate(reviews)]
    rmas.sort(key=lambda x: (x[2], x[0]))
    rmas = [[k + 1, *row[1:]] for k, row in enumerate(rmas)]
    carriers = [(cid, name, svc) for cid, name, svc, *_ in CARRIERS]
    return {"Customer": customers, "customer_address": addresses, "Category": categories, "brands": brands,
            "Product": products, "marketing_coupons": coupons, "orders": orders, "OrderLine": lines,
            "payments": payments, "carriers": carriers, "Shipment": shipments, "rma_requests": rmas,
            "ProductReview": reviews}


def qualified(table: str) -> str:
    return f'{SCHEMA}."{table}"' if table != table.lower() else f"{SCHEMA}.{table}"


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
        for ddl in DDL:
            cur.execute(ddl)
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {{}}").format(sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f"COPY {qualified(table)} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {qualified(table)}")
            counts[qualified(table)] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic online shop into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()

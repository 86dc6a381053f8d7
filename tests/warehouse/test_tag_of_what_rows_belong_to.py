"""'the average sale of poetry books': a tag on a link table (book_tags) said of the thing the rows belong
to (a sale's book) filters those rows as a semi-join, which cannot count a row twice; grouping by the tag
still counts a row once in each of its tags."""

from __future__ import annotations

import pytest

from tests.support.small_warehouse import assert_reads_as, bootstrapped

SCHEMA = """
CREATE TABLE books (book_id INTEGER PRIMARY KEY, title VARCHAR NOT NULL);
CREATE TABLE book_tags (book_id INTEGER NOT NULL REFERENCES books (book_id), tag VARCHAR NOT NULL,
                        PRIMARY KEY (book_id, tag));
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES books (book_id),
                    amount DECIMAL(8, 2) NOT NULL);
INSERT INTO books VALUES (1, 'Odes'), (2, 'Sonnets and Stories'), (3, 'Atlas');
INSERT INTO book_tags VALUES (1, 'Poetry'), (2, 'Poetry'), (2, 'Fiction'), (3, 'Reference');
INSERT INTO sales VALUES (1, 1, 10), (2, 2, 30), (3, 2, 50), (4, 3, 100), (5, 1, 20);
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("tag_of_owner"), "shop", SCHEMA) as work:
        yield work


@pytest.mark.parametrize(("question", "sql"), [
    ("average sale amount for poetry books",
     "SELECT avg(amount) FROM sales WHERE book_id IN (SELECT book_id FROM book_tags WHERE tag = 'Poetry')"),
    ("how many sales did fiction books get",
     "SELECT count(*) FROM sales WHERE book_id IN (SELECT book_id FROM book_tags WHERE tag = 'Fiction')"),
])
def test_a_tag_of_the_rows_owner_filters_once(shop, question, sql):
    assert_reads_as(shop, question, sql)

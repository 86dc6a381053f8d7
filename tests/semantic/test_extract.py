import pytest

from agent.semantic.nlq.follow_ups import follow_up_intents, suggest_follow_ups
from agent.semantic.compile.intent import validate_intent


def intent_of(ask, question):
    extraction = ask(question)
    assert extraction.intent is not None, (question, extraction)
    return extraction.intent


def filters_of(intent):
    return {(f.field, f.op, tuple(f.values)) for f in intent.filters}


@pytest.mark.parametrize("question, metric", [
    ("How late are flights on average?", "avg_dep_delay"),
    ("mean arrival delay", "avg_arr_delay"),
    ("worst departure delay", "max_dep_delay"),
    ("What's the longest flight?", "max_distance"),
    ("shortest flight distance", "min_distance"),
    ("total miles flown", "total_distance"),
    ("How many cancellations were there?", "cancelled_flights"),
    ("How many different aircraft flew?", "distinct_planes"),
    ("fleet size", "plane_count"),
    ("typical humidity", "avg_humid"),
    ("punctuality", "on_time_share"),
])
def test_metric_synonyms(ask, question, metric):
    assert intent_of(ask, question).metrics == [metric]


def test_every_metric_label_reads_back_as_that_metric(ask, model):
    for metric in model.metrics:
        assert intent_of(ask, metric.label).metrics == [metric.name], metric.label


@pytest.mark.parametrize("question, dimension", [
    ("flights by airline", "carrier"),
    ("flights per airline name", "airline_name"),
    ("flights for each route", "route"),
    ("average seats by maker", "manufacturer"),
    ("number of flights per destination time zone", "dest_tzone"),
    ("flights across weekdays", "day_of_week"),
    ("hourly departures", "hour"),
    ("weekly flight count", "week"),
])
def test_dimension_words(ask, question, dimension):
    assert intent_of(ask, question).dimensions == [dimension]


@pytest.mark.parametrize("question, expected", [
    ("flights from Newark", ("origin", "=", ("EWR",))),
    ("flights out of LaGuardia", ("origin", "=", ("LGA",))),
    ("flights leaving Kennedy", ("origin", "=", ("JFK",))),
    ("flights to LAX", ("dest", "=", ("LAX",))),
    ("flights operated by Hawaiian", ("carrier", "=", ("HA",))),  # from airlines.name, no alias
    ("ExpressJet flights", ("carrier", "=", ("EV",))),
    ("flights by carrier B6", ("carrier", "=", ("B6",))),
    ("flights from JFK or EWR", ("origin", "in", ("JFK", "EWR"))),
    ("flights excluding United", ("carrier", "!=", ("UA",))),
    ("Boeing planes", ("manufacturer", "=", ("BOEING",))),
    # 'A to B': the word between is B's own cue, so A is the other end, whatever else A could be
    ("how many delta flights lga to atl in may", ("origin", "=", ("LGA",))),
    ("flights lga to atl", ("dest", "=", ("ATL",))),
])
def test_values_from_the_warehouse(ask, question, expected):
    assert expected in filters_of(intent_of(ask, question))


@pytest.mark.parametrize("question, expected", [
    ("flights with an arrival delay over 2 hours", ("arr_delay", ">", (120,))),
    ("flights delayed by at least 90 minutes", ("dep_delay", ">=", (90,))),
    ("flights delayed more than an hour", ("dep_delay", ">", (60,))),
    ("planes with more than 200 seats", ("seats", ">", (200,))),
    ("planes with fewer than 10 seats", ("seats", "<", (10,))),
    ("flights under 500 miles", ("distance", "<", (500,))),
    ("flights with a distance between 1000 and 2000", ("distance", "between", (1000, 2000))),
    ("planes with 4 engines or more", ("engines", ">=", (4,))),
])
def test_numbers_with_comparison_words(ask, question, expected):
    assert filters_of(intent_of(ask, question)) == {expected}


@pytest.mark.parametrize("question, months", [
    ("flights in March", [3]),
    ("flights in Sept", [9]),
    ("flights in Q2", [4, 5, 6]),
    ("flights in the third quarter", [7, 8, 9]),
    ("flights in the first half of the year", [1, 2, 3, 4, 5, 6]),
    ("flights in H2", [7, 8, 9, 10, 11, 12]),
    ("flights from June through August", [6, 7, 8]),
    ("flights between March and May", [3, 4, 5]),
    ("flights from November to February", [1, 2, 11, 12]),
    ("flights in March and May", [3, 5]),
    ("flights in summer", [6, 7, 8]),
    ("flights in winter", [1, 2, 12]),
])
def test_time_words(ask, question, months):
    assert intent_of(ask, question).time.months == months


def test_a_day_of_a_month(ask):
    time = intent_of(ask, "flights on October 5th").time
    assert (time.months, time.days) == ([10], [5])


def test_may_the_verb_is_not_a_month(ask):
    extraction = ask("Which carrier may have the highest average departure delay?")
    assert extraction.intent.time is None


def test_daily_means_the_date_unless_one_month_is_asked(ask):
    assert intent_of(ask, "daily flight count").dimensions == ["date"]
    assert intent_of(ask, "daily flight count in July").dimensions == ["day"]


def test_top_n_and_which(ask):
    top = intent_of(ask, "top 3 destinations by number of flights")
    assert (top.dimensions, top.limit, top.order_by[0].field, top.order_by[0].descending) == \
        (["dest"], 3, "flight_count", True)
    which = intent_of(ask, "Which carrier has the lowest average arrival delay?")
    assert (which.limit, which.order_by[0].descending) == (1, False)
    busiest = intent_of(ask, "the busiest route")
    assert (busiest.metrics, busiest.dimensions, busiest.limit) == (["flight_count"], ["route"], 1)
    several = intent_of(ask, "Which carriers have the most cancellations?")
    assert several.limit is None and several.order_by[0].descending


def test_a_number_after_each_of_the_counts_the_things_and_keeps_no_top_n(ask):
    # 'each of the 3 nyc airports' names all of them: no top 3 that a later 'by month instead' would keep
    each = intent_of(ask, "% of flights cancelled at each of the 3 nyc airports")
    assert (each.dimensions, each.limit, each.order_by) == (["origin"], None, [])
    assert intent_of(ask, "show the 10 routes with the most flights").limit == 10
    # 'all 365 days' counts days, no set of things: the number is not read away as one
    assert ask("avg flights per day for each airline, over all 365 days").intent is None


def test_a_metric_is_chosen_by_what_it_can_reach(ask):
    # planes counted on their own table, or from flights when a flight field is asked about
    assert intent_of(ask, "How many planes have more than 200 seats?").metrics == ["plane_count"]
    assert intent_of(ask, "How many planes flew from JFK?").metrics == ["distinct_planes"]
    assert intent_of(ask, "average humidity by month").metrics == ["avg_humid"]


def test_per_row_is_not_a_grouping(ask):
    assert intent_of(ask, "average seats per plane").dimensions == []
    assert intent_of(ask, "average departure delay per plane").dimensions == ["tailnum"]


def test_unknown_value_is_reported(ask):
    extraction = ask("How many flights did carrier ZZ operate?")
    assert extraction.intent is None
    assert [(u.text, u.dimension) for u in extraction.unknown_values] == [("ZZ", "carrier")]
    assert extraction.unknown_values[0].suggestions
    extraction = ask("flights from XYZ")
    assert [(u.text, u.dimension) for u in extraction.unknown_values] == [("XYZ", "origin")]


def test_data_the_warehouse_does_not_have(ask):
    extraction = ask("What is the average ticket price by airline?")
    assert extraction.intent is None
    assert "ticket prices" in extraction.unsupported
    assert "number of flights" in extraction.unsupported and "average temperature" in extraction.unsupported
    assert "passengers" in ask("How many passengers flew to Boston?").unsupported
    # the person's own word is named beside the topic, so the refusal is plainly about what they asked
    assert "ticket prices (“fare”)" in ask("avg fare on jfk-lax by airline").unsupported
    assert "passengers (" not in ask("How many passengers flew to Boston?").unsupported


def test_an_ambiguous_word_offers_its_meanings(ask):
    extraction = ask("number of flights by airport")
    assert extraction.intent is None
    assert extraction.ambiguous[0].options == ["origin", "dest"]
    # where only one meaning fits the measure there is no question to ask
    assert intent_of(ask, "average temperature by airport").dimensions == ["origin"]


def test_no_measure_is_said_not_guessed(ask):
    extraction = ask("tell me something interesting")
    assert extraction.intent is None and extraction.reason
    assert ask("total temperature").reason.startswith("The semantic model has no metric")


def test_confidence_drops_with_words_not_understood(ask):
    clear = ask("average arrival delay by carrier")
    vague = ask("average arrival delay by carrier for the glorious jubilee squadron")
    assert clear.confidence == 1.0 and vague.confidence < clear.confidence
    assert "jubilee" in vague.ignored_words


@pytest.mark.parametrize("question", [
    "How many flights departed from Newark (EWR) in March?",
    "Average seats per plane by engine type",
    "Daily flight count in October",
    "Average humidity by month at LGA",
    "How many planes have more than 200 seats?",
    "Average departure delay for Southwest in the second half of the year",
])
def test_follow_ups_parse_back_to_what_they_mean(ask, model, values, question):
    intent = intent_of(ask, question)
    suggestions = suggest_follow_ups(intent, model, values, n=3)
    assert len(suggestions) == 3 and len(set(suggestions)) == 3
    for text, meant in follow_up_intents(intent, model, values):
        parsed = intent_of(ask, text)
        assert validate_intent(parsed, model) == []
        # leaving out an unknown group when ranking is the parser's reading, not part of the suggestion
        assert parsed.model_copy(update={"drop_unknown_groups": False}) == meant, text


def test_which_n_keeps_n(ask):
    intent = intent_of(ask, "Which 3 carriers have the highest average arrival delay?")
    assert (intent.limit, intent.order_by[0].field) == (3, "avg_arr_delay")


def test_full_airline_name_is_one_value(ask):
    intent = intent_of(ask, "How many flights did American Airlines have to Dallas?")
    assert intent.dimensions == []
    assert filters_of(intent) == {("carrier", "=", ("AA",)), ("dest", "=", ("DFW",))}


def test_unknown_place_after_from_or_to_is_reported(ask):
    extraction = ask("How many flights went to Springfield?")
    assert extraction.intent is None
    assert [(u.text, u.dimension) for u in extraction.unknown_values] == [("Springfield", "dest")]


def test_comparison_without_a_measure_is_not_dropped(ask):
    # a clock time is the hours of the day (the flights' scheduled hour), never a dropped condition
    assert intent_of(ask, "flights after 6 pm").time.hours == list(range(18, 24))
    extraction = ask("flights after 6")
    assert extraction.intent is None and "after 6" in extraction.reason
    assert filters_of(intent_of(ask, "How many planes were built before 2000?")) == {("plane_year", "<", (2000,))}


def test_counting_distinct_values_the_model_lacks_a_metric_for(ask):
    """No declared metric counts routes: the implicit count_distinct of the route dimension does."""
    intent = intent_of(ask, "Which carrier flies the most routes?")
    assert intent.metrics == ["route__count_distinct"] and intent.dimensions == ["carrier"] and intent.limit == 1


def test_median_is_its_own_aggregation(ask):
    assert intent_of(ask, "median arrival delay by origin").metrics == ["median_arr_delay"]


def test_weekdays_filter_and_group(ask, model, warehouse):
    from agent.semantic.compile.compiler import compile_intent

    mondays = intent_of(ask, "average departure delay on Mondays")
    assert mondays.time.weekdays == [1]
    weekend = intent_of(ask, "flights on weekends")
    assert weekend.time.weekdays == [6, 7]
    assert intent_of(ask, "flights by weekday").dimensions == ["day_of_week"]
    by_day = dict(warehouse.run(compile_intent(intent_of(ask, "flights by weekday"), model).sql).rows)
    weekend_count = warehouse.run(compile_intent(weekend, model).sql).rows[0][0]
    assert weekend_count == by_day["6 Saturday"] + by_day["7 Sunday"]


@pytest.mark.parametrize("question", [
    "Number of flights per hour of the day",
    "average delay by time of day",
    "how many flights per day",
    "flights per day of the week",
])
def test_a_model_word_typed_in_lower_case_is_not_a_code(ask, question):
    # DAY is an airport code, but "day" is one of the model's own words
    assert not {f.field for f in intent_of(ask, question).filters} & {"origin", "dest"}


def test_a_code_typed_as_a_code_is_still_a_value(ask):
    assert filters_of(intent_of(ask, "flights to DAY")) == {("dest", "=", ("DAY",))}


def test_model_vocabulary_keeps_lower_case_codes_out_of_the_value_index(model):
    from agent.semantic.model.values import ValueIndex

    index = ValueIndex.build({"dest": ["DAY", "LAX", "DEN"]}, {}, model)
    lower = {(p.words, p.needs_cue) for p in index.phrases if not p.case_sensitive}
    assert ("day",) not in {words for words, _ in lower}
    assert (("lax",), False) in lower and (("den",), True) in lower


def test_a_name_in_the_plural_that_the_model_uses_for_itself_is_no_value(model):
    """'Leads by source' where someone's last name is Lead: 'leads' names the counted rows, never that person;
    the name as typed ('Flight') still is a value."""
    from agent.semantic.model.values import ValueIndex

    index = ValueIndex.build({"airline_name": ["Flight", "Comedy"]}, {}, model)
    said = {p.words for p in index.phrases if not p.case_sensitive}
    assert ("flights",) not in said and ("flight",) in said and ("comedies",) in said


@pytest.mark.parametrize("question, expected", [
    ("how many flights from ewr to den in may", {("origin", "=", ("EWR",)), ("dest", "=", ("DEN",))}),
    ("flights to sea", {("dest", "=", ("SEA",))}),
])
def test_an_everyday_word_code_is_a_value_after_a_cue(ask, question, expected):
    assert filters_of(intent_of(ask, question)) == expected


@pytest.mark.parametrize("question", [
    "flights per day of week",
    "flights per day of the week",
    "flights by day of week",
    "number of flights each day of the week",
])
def test_the_longest_phrase_wins_whatever_the_cue(ask, question):
    assert intent_of(ask, question).dimensions == ["day_of_week"]


@pytest.mark.parametrize("question, limit", [
    ("list the 10 busiest routes", 10),
    ("top 10 busiest routes", 10),
    ("what are the busiest routes", None),
    ("show me the 3 most popular routes", 3),
])
def test_a_ranking_adjective_ranks_the_noun_by_the_default_metric(ask, question, limit):
    intent = intent_of(ask, question)
    assert (intent.metrics, intent.dimensions, intent.limit) == (["flight_count"], ["route"], limit)
    assert intent.order_by[0].field == "flight_count" and intent.order_by[0].descending


def test_a_quantity_word_counts_distinct_values_with_the_models_metric(ask, model):
    assert model.distinct_count_metric("dest") == "distinct_destinations"
    assert model.distinct_count_metric("route") == "route__count_distinct"  # implicit: no declared metric
    intent = intent_of(ask, "which carrier flies to the most destinations")
    assert (intent.metrics, intent.dimensions, intent.limit) == (["distinct_destinations"], ["carrier"], 1)


@pytest.mark.parametrize("question", [
    "How many planes were made by Boeing?",
    "how many planes were built by boeing",
    "number of planes manufactured by Boeing",
    "planes made by boeing",
])
def test_a_counted_question_takes_no_measure_from_a_verb(ask, question):
    intent = intent_of(ask, question)
    assert intent.metrics == ["plane_count"]
    assert filters_of(intent) == {("manufacturer", "=", ("BOEING",))}


@pytest.mark.parametrize("question, dimensions, limit", [
    ("busiest month", ["month"], 1),
    ("most popular destination from jfk", ["dest"], 1),
    ("top carrier by flights", ["carrier"], 1),
    ("what is the busiest day of the year", ["date"], 1),
    ("which weekday has the highest avg arrival delay", ["day_of_week"], 1),
])
def test_a_superlative_before_a_singular_group_keeps_one(ask, question, dimensions, limit):
    intent = intent_of(ask, question)
    assert (intent.dimensions, intent.limit) == (dimensions, limit)


@pytest.mark.parametrize("question, metrics", [
    ("flights per destination with avg arrival delay", ["flight_count", "avg_arr_delay"]),
    ("flights per destination with the average arrival delay", ["flight_count", "avg_arr_delay"]),
    ("flights with arrival delay over 30", ["flight_count"]),  # a condition, no second measure
    ("avg arrival delay per destination", ["avg_arr_delay"]),
])
def test_things_with_a_measure_after_them_are_counted_beside_it(ask, question, metrics):
    assert intent_of(ask, question).metrics == metrics


@pytest.mark.parametrize("question, limit, descending", [("the oldest plane", 1, False), ("the 3 newest planes", 3, True)])
def test_an_age_adjective_of_a_thing_named_also_by_its_key_ranks_the_things(ask, question, limit, descending):
    """'plane' names the planes and their tail number; 'oldest' is the year built, which the model calls
    'year the plane was built' (its other names end in 'year'): one row per plane, ranked by it."""
    intent = intent_of(ask, question)
    assert intent.metrics == ["avg_plane_year"] and intent.limit == limit
    assert [(o.field, o.descending) for o in intent.order_by] == [("avg_plane_year", descending)]
    assert len(intent.dimensions) == 1


@pytest.mark.parametrize("question, dimension, compared", [
    ("avg dep delay for american vs delta", "carrier", ("AA", "DL")),
    ("compare jfk and lga by number of flights", "origin", ("JFK", "LGA")),
])
def test_values_set_against_each_other_are_grouped(ask, question, dimension, compared):
    intent = intent_of(ask, question)
    assert intent.dimensions == [dimension] and filters_of(intent) == {(dimension, "in", compared)}


@pytest.mark.parametrize("question, expected", [
    ("how many planes have 4 engines", ("engines", "=", (4,))),
    ("how many flights arrived more than 1 hour late", ("arr_delay", ">", (60,))),
    ("flights longer than 5 hours", ("air_time", ">", (300,))),
    ("flights not operated by united", ("carrier", "!=", ("UA",))),
])
def test_more_filters_people_type(ask, question, expected):
    assert filters_of(intent_of(ask, question)) == {expected}


def test_the_most_of_a_measure_adds_it_up(ask):
    intent = intent_of(ask, "which carrier flew the most miles")
    assert (intent.metrics, intent.limit) == (["total_distance"], 1)


@pytest.mark.parametrize("question, metrics, ranked", [
    ("max arrival delay per route", ["max_arr_delay"], False),
    ("highest temperature by month", ["max_temp"], False),
    ("which month has the highest temperature", ["avg_temp"], True),
    ("carriers with the highest delay", ["avg_dep_delay"], True),
])
def test_a_superlative_before_a_grouped_measure_aggregates_unless_it_picks_a_group(ask, question, metrics, ranked):
    intent = intent_of(ask, question)
    assert (intent.metrics, bool(intent.order_by)) == (metrics, ranked)


def test_follow_ups_skip_what_the_question_defined_itself(model, values):
    """A formula or condition the question defined is not a model name: no follow-up, and no crash."""
    from agent.semantic.compile.intent import Filter, StructuredIntent

    defined = StructuredIntent(metrics=["flight_count"], filters=[Filter(field="defined_in_question", values=[1])])
    assert suggest_follow_ups(defined, model, values) == []
    assert suggest_follow_ups(StructuredIntent(metrics=["flight_count"], dimensions=["carrier"]), model, values)


def test_a_value_of_two_dimensions_that_nothing_decides_is_asked(ask):
    # LGA is an origin of most flights and the destination of one: which is meant is asked, not picked
    extraction = ask("number of flights for LGA in June")
    assert extraction.intent is None
    [asked] = extraction.ambiguous
    assert (asked.text, sorted(asked.options), asked.of_value) == ("LGA", ["dest", "origin"], True)


@pytest.mark.parametrize("question, dimension", [
    ("number of flights from LGA", "origin"),  # a preposition the model gives the origin
    ("number of flights into LGA", "dest"),  # and the destination
    ("number of flights with destination LGA", "dest"),  # the column's own name before it
    ("flights left LGA in June", "origin"),
    ("compare JFK and LGA by number of flights", "origin"),  # listed with a value of one of them
])
def test_the_words_decide_which_dimension_a_value_is_of(ask, question, dimension):
    intent = intent_of(ask, question)
    assert any(f.field == dimension and "LGA" in f.values for f in intent.filters), intent.filters


def test_how_many_hours_asks_for_an_amount_never_a_count_of_hours(ask):
    # the demo measures air time and delays in minutes: 'how many hours' is an amount of them
    asked = ask("how many hours did planes fly in total?")
    assert asked.intent is None and "How many hours" in (asked.reason or "")
    measured = ask("how many minutes were flights delayed in total").intent
    assert measured is not None and measured.metrics == ["total_dep_delay"]  # 'in total': the delays added up


def test_how_many_miles_adds_up_the_one_measure_kept_in_miles(ask):
    intent = ask("how many miles did United fly").intent
    assert intent is not None and intent.metrics == ["total_distance"]
    assert [(f.field, f.values) for f in intent.filters] == [("carrier", ["UA"])]


@pytest.mark.parametrize("question, grouped", [("which carriers had no cancelled flights", "carrier"),
                                               ("which destinations had zero cancelled flights in february", "dest")])
def test_groups_with_none_of_the_counted_rows_keep_a_count_of_zero(ask, question, grouped):
    intent = intent_of(ask, question)
    assert intent.dimensions == [grouped]
    assert [(h.metric, h.op, h.value) for h in intent.having] == [("cancelled_flights", "=", 0)]
    assert not intent.filters  # a WHERE on the cancelled rows would leave out exactly the groups asked for


def test_no_said_of_the_counted_rows_themselves_is_no_count_of_zero(ask):
    read = ask("number of flights with no departure delay by carrier")
    assert read.intent is None or not read.intent.having


@pytest.mark.parametrize("question, expected", [
    ("delayed flights from lga on aa in june", ("carrier", "=", ("AA",))),
    ("flights on ua from ewr", ("carrier", "=", ("UA",))),
])
def test_a_two_letter_code_typed_in_lower_case_after_its_cue(ask, question, expected):
    assert expected in filters_of(intent_of(ask, question))


def test_a_two_letter_word_without_a_cue_is_no_code(ask):
    assert not any(f.field == "carrier" for f in intent_of(ask, "how many flights are there in the us").filters)


@pytest.mark.parametrize("question, metric, expected", [
    ("avrage dep delay by month", "avg_dep_delay", None),
    ("how many cancelations in march", "cancelled_flights", None),
    ("flights to denvr", "flight_count", ("dest", "=", ("DEN",))),
    # a slip inside a phrase, two letters swapped: the phrase is read whole
    ("avg dep dealy by carrier from jfk", "avg_dep_delay", ("origin", "=", ("JFK",))),
    ("nubmer of flights in octobr", "flight_count", None),
])
def test_a_word_a_letter_away_from_one_of_the_models_is_read_as_it(ask, question, metric, expected):
    intent = intent_of(ask, question)
    assert intent.metrics == [metric]
    assert expected is None or expected in filters_of(intent)


def test_a_word_far_from_every_word_of_the_model_is_asked_about(ask):
    extraction = ask("flights to qwxzzy")
    assert extraction.intent is None and "qwxzzy" in (extraction.reason or "") + str(extraction.unknown_values)


def test_a_percent_sign_after_a_flag_asks_its_share(ask):
    intent = intent_of(ask, "on time % for united by origin")
    assert intent.metrics == ["on_time_share"] and intent.dimensions == ["origin"]
    assert ("carrier", "=", ("UA",)) in filters_of(intent)


@pytest.mark.parametrize("question, dimension", [
    ("which airport had the most departures in january", "origin"),
    ("which airport had the most arrivals in january", "dest"),
    ("avg dep delay by airport", "origin"),  # a short form tells as its word does
    ("avg arr delay per airport", "dest"),
])
def test_an_ambiguous_grouping_is_told_by_the_other_words(ask, question, dimension):
    assert intent_of(ask, question).dimensions == [dimension]


def test_a_grouping_nothing_else_tells_is_asked(ask):
    extraction = ask("which airport had the most flights")
    assert extraction.intent is None and extraction.ambiguous


def test_a_measure_said_late_without_a_number_is_its_rows_above_zero(ask):
    # 'arrived late' names the arrival delay; with no number, the flights late at all (the reading says '> 0'),
    # never every flight
    read = ask("how many flights arrived late in June?")
    assert read.intent is not None and [(f.field, f.op, f.values) for f in read.intent.filters] == [
        ("arr_delay", ">", [0])], read


@pytest.mark.parametrize(("question", "field"), [("how many flights left early in 2013", "dep_delay"),
                                               ("how many flights departed early", "dep_delay"),
                                               ("how many flights arrived early in june", "arr_delay")])
def test_a_verb_said_with_the_other_side_word_is_its_rows_below_zero(ask, question, field):
    # the model says 'departed late'; 'left early' is the same measure's other side (vocabulary.yaml
    # signed_predicates), and a year read as the period is no amount beside it
    read = ask(question)
    assert read.intent is not None and [(f.field, f.op, f.values) for f in read.intent.filters
                                        if f.field.endswith("delay")] == [(field, "<", [0])], read


def test_how_a_flag_happened_is_a_condition_of_its_own_never_dropped(ask):
    # 'took off' reads as the flights that took off; 'smoothly' says how, and must be read or asked about
    read = ask("how many flights took off smoothly")
    assert read.intent is None and "smoothly" in read.ignored_words, read


def test_of_two_phrases_as_long_the_one_not_leaning_on_a_filler_word_is_read(ask):
    # 'actually left' (took off) and 'left early' (departure delay < 0) overlap; 'actually' adds nothing
    read = ask("how many flights actually left early in 2013")
    assert read.intent is not None and [(f.field, f.op, f.values) for f in read.intent.filters] == [
        ("dep_delay", "<", [0])], read


@pytest.mark.parametrize("question", ["max arrival delay per destination from lga, top 10",
                                      "top 10 destinations from lga by max arrival delay"])
def test_an_aggregations_own_name_before_a_measure_aggregates_when_another_word_ranks(ask, question):
    intent = intent_of(ask, question)
    assert intent.metrics == ["max_arr_delay"] and intent.dimensions == ["dest"] and intent.limit == 10


@pytest.mark.parametrize("question", ["what's envoy's carrier code", "what is the carrier code of envoy"])
def test_what_is_a_things_attribute_asks_for_it(ask, question):
    intent = intent_of(ask, question)
    assert intent.dimensions == ["carrier"] and ("carrier", "=", ("MQ",)) in filters_of(intent)


def test_the_max_of_a_measure_each_group_aggregates_within_each(ask):
    """'the max dep delay each month': one row per month, the largest delay in it; 'which carrier has the
    highest delay' still picks a carrier."""
    each = intent_of(ask, "the max dep delay each month")
    assert each.metrics == ["max_dep_delay"] and each.dimensions == ["month"] and each.limit is None, each
    which = intent_of(ask, "which carrier has the highest dep delay")
    assert which.limit == 1 and which.dimensions == ["carrier"], which


def test_a_thing_pointed_at_with_nothing_before_is_asked_about_not_grouped(ask):
    """'how many flights on that route' with no earlier answer: which route is not said, so it is asked;
    never the flights of every route."""
    read = ask("how many flights on that route")
    assert read.intent is None and "route" in (read.ignored_words or [read.reason or ""])[0], read


@pytest.mark.parametrize("question", ["how many planes were built since 2010", "how many planes were built 2010 or later"])
def test_a_year_and_every_later_one_on_a_year_column(ask, question):
    intent = intent_of(ask, question)
    assert [(f.field, f.op, f.values) for f in intent.filters] == [("plane_year", ">=", [2010])], intent


def test_who_is_the_rows_own_column_of_people_or_companies(ask):
    """'who flies JFK to HNL': no joined table names things, so 'who' is the flights' own column that names
    organisations (the carrier), never a count of the flights, which answers another question."""
    assert intent_of(ask, "who flies JFK to HNL").dimensions == ["carrier"]
    assert intent_of(ask, "who flies the most to sfo").dimensions == ["carrier"]
    assert intent_of(ask, "which airlines fly JFK to HNL").dimensions, "a grouping named still answers"


def test_who_with_nothing_named_is_asked_not_answered_with_a_total(ask):
    """Rows with no column naming people or organisations: 'who' is asked about, not answered with a total."""
    read = ask("who had the most rain")  # the weather's rows name nobody: no carrier guessed from the flights
    assert read.intent is None and "arrier" not in (read.reason or ""), read


def test_an_adjective_from_a_columns_noun_describes_things_and_never_groups_by_it(ask):
    # 'regional' shares its stem with the time zone's 'region': 'the regional carriers' are a kind of carrier
    # the model cannot tell, never the answer by region
    read = ask("avg air time of the regional carriers")
    assert read.intent is None and "regional" in (read.reason or "") + " ".join(read.ignored_words), read


@pytest.mark.parametrize("question", ["how many flights arrived more than an hour late",
                                      "how many flights landed more than an hour late",
                                      "how many flights got in more than an hour late"])
def test_a_measure_phrase_split_by_its_comparison_may_be_said_in_other_words(ask, question):
    # 'landed late', 'got in late': the thesaurus's words for 'arrived late', a synonym of the arrival delay
    assert filters_of(intent_of(ask, question)) == {("arr_delay", ">", (60,))}


@pytest.mark.parametrize("question", ["on-time % per carrier (on time = arrived less than 15 min late)",
                                      "share of flights on time by carrier, on time meaning landed less than 15 min late"])
def test_a_metric_redefined_by_a_condition_on_its_own_column_is_not_a_filter(ask, question):
    # filtering to arrival delay < 15 and measuring on time the model's way answers another question
    read = ask(question)
    assert read.intent is None and "own condition on arrival delay" in read.reason, read


def test_where_do_things_go_asks_for_the_places_a_to_cue_names(ask):
    # 'where': places, by the one dimension a 'to' cue points at; never a bare count of the rows
    went = intent_of(ask, "where do southwest flights go from ewr")
    assert went.dimensions == ["dest"] and {f.field for f in went.filters} == {"carrier", "origin"}
    assert intent_of(ask, "where do jetblue's flights go").dimensions == ["dest"]


@pytest.mark.parametrize("question, limit", [("whats the most flown plane", 1), ("the most flown planes", None),
                                             ("top 5 most flown planes", 5)])
def test_the_verb_of_the_rows_after_a_ranking_word_ranks_the_things(ask, question, limit):
    # 'the most streamed song': the things after a ranking word and the rows' verb are ranked by those rows, one
    # when said in the singular; the rows with no plane are no plane to rank
    intent = intent_of(ask, question)
    assert intent.dimensions == ["tailnum"] and intent.metrics == ["flight_count"], intent
    assert intent.limit == limit and intent.order_by[0].descending and intent.drop_unknown_groups, intent


def test_a_proper_name_in_one_coded_values_label_names_that_value(ask):
    """'charlotte' (Charlotte Douglas Intl) and 'austin' (Austin Bergstrom Intl) are said more often than the
    rare-word bound, but are no dictionary word: a place's own name, so said alone they mean that airport."""
    assert intent_of(ask, "flights to charlotte").filters[0].values == ["CLT"]
    assert intent_of(ask, "who flies nyc to austin? count per airline").filters[0].values == ["AUS"]
    # a dictionary word of a name ('field', 'lake') is still never taken for the place
    assert ask("flights to the lake").intent is None


def test_a_total_of_a_measure_is_never_read_as_its_average(ask):
    """'sum of all dep delay' is the total ('all' between them said nothing else); a total left unattached to a
    measure is asked about, never dropped for the measure's default (the average)."""
    assert intent_of(ask, "sum of all dep delay per airline").metrics == ["total_dep_delay"]
    assert intent_of(ask, "Total number of departures per origin").metrics == ["flight_count"]


def test_a_unit_beside_its_measure_is_the_answers_unit_not_the_hour_of_day(ask):
    """'dep delay minutes', 'minutes of dep delay', 'air time hours': the unit of the measure named beside it."""
    assert intent_of(ask, "sum of all dep delay minutes per airline").metrics == ["total_dep_delay"]
    assert intent_of(ask, "total minutes of dep delay per airline").metrics == ["total_dep_delay"]
    read = intent_of(ask, "total air time hours per carrier")
    assert read.dimensions == ["carrier"] and read.definitions, read
    assert intent_of(ask, "flights by hour").dimensions == ["hour"]


def test_which_read_as_one_total_is_said_not_answered(ask):
    """'which ones were cancelled in march' names no things to list: one total would answer another question."""
    read = ask("which ones were cancelled in march")
    assert read.intent is None and "“Which” asks for things" in (read.reason or ""), read
    assert intent_of(ask, "which carrier had the most cancelled flights in march").dimensions == ["carrier"]


def test_airport_beside_a_condition_on_the_weather_is_the_weathers_own_airport(ask, model, values):
    """The hourly weather is of the origin airport: 'by airport' with a condition on it is the origin, and the
    word alone is still asked about."""
    from agent.semantic.nlq.follow_up import read_follow_up

    assert intent_of(ask, "number of flights when the temperature was below 32 by airport").dimensions == ["origin"]
    assert ask("number of flights by airport").intent is None
    previous = intent_of(ask, "how many flights when temperature was below 32")
    assert read_follow_up(previous, "by airport", model, values).edited.intent.dimensions == ["origin"]


def test_codes_set_against_each_other_cue_each_other(ask):
    """'aa vs dl vs ua side by side': carrier codes said with 'vs' are carriers without a 'for' before them, each
    on its own row (which is 'side by side'); 'cancel %' is the cancel rate."""
    read = intent_of(ask, "aa vs dl vs ua side by side - # flights, avg arr delay, cancel %")
    assert read.dimensions == ["carrier"] and read.filters[0].values == ["AA", "DL", "UA"], read
    assert {"avg_arr_delay", "cancellation_rate"} <= set(read.metrics), read
    assert intent_of(ask, "cancellation % by month").metrics == ["cancellation_rate"]
    assert ask("us vs them").intent is None  # a code needs another of its kind across 'vs'


@pytest.mark.parametrize("question", ["cancelled flights per week at lga (weeks starting monday)",
                                      "flights per week across 2013? mon-sun weeks"])
def test_when_a_week_starts_is_how_weeks_are_counted_not_a_day_kept(ask, question):
    """'weeks starting monday': the calendar's weeks run Monday to Sunday already, so no day is filtered; a week
    said to start on another day is not read as one that does."""
    read = intent_of(ask, question)
    assert read.dimensions == ["week"] and (read.time is None or not read.time.weekdays), read
    assert ask("flights per week, weeks starting sunday").intent is None
    assert intent_of(ask, "avg dep delay on mondays").time.weekdays == [1]


def test_peak_of_a_grouping_is_its_busiest_and_of_a_measure_its_maximum(ask):
    """'peak hour at lga' is the busiest hour; 'peak wind gust' is still the highest gust."""
    hour = intent_of(ask, "peak hour at lga")
    assert hour.dimensions == ["hour"] and hour.metrics == ["flight_count"] and hour.limit == 1, hour
    assert hour.order_by[0].descending
    assert intent_of(ask, "peak wind gust by month").metrics == ["max_wind_gust"]


def test_a_makers_name_written_out_with_what_it_makes_is_one_maker(ask):
    """'MCDONNELL DOUGLAS AIRCRAFT CO' of the planes' maker: 'aircraft' is what the planes are, left out as 'Co'
    is, so 'mcdonnell douglas' means all three spellings; 'portland' (Intl or Intl Jetport) is still asked."""
    read = intent_of(ask, "how many flights were on mcdonnell douglas planes")
    assert sorted(read.filters[0].values) == ["MCDONNELL DOUGLAS", "MCDONNELL DOUGLAS AIRCRAFT CO",
                                              "MCDONNELL DOUGLAS CORPORATION"], read
    assert ask("how many flights to portland").ambiguous


def test_values_set_against_each_other_may_repeat_their_introducing_word(ask):
    """'cancelled flights on ua vs on aa', 'of aa vs of dl': the word before the first value said again after
    'vs' still sets the two values side by side."""
    for question in ("cancelled flights on ua vs on aa", "avg dep delay of aa vs of dl", "avg dep delay, aa vs the dl"):
        read = intent_of(ask, question)
        assert read.dimensions == ["carrier"] and sorted(read.filters[0].values) == ["AA", "DL" if "dl" in question
                                                                                       else "UA"], (question, read)


def test_a_unit_before_its_measure_and_on_avg(ask):
    """'avg minutes behind schedule': the unit between the aggregation and the measure; 'on avg' as 'on average';
    'the min' stays the least, never minutes."""
    assert intent_of(ask, "avg minutes behind schedule by carrier").metrics == ["avg_dep_delay"]
    assert intent_of(ask, "how many minutes late were flights on avg").metrics == ["avg_dep_delay"]
    assert intent_of(ask, "min arrival delay by origin").metrics == ["min_arr_delay"]

/* test_graph.c: graph definitions are validated before any run, each defect
 * with its own code and a message naming the node. */
#include "check.h"
#include "edgegraph.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The code eg_graph_new returns, checked to be the code it reports in *err. */
static eg_code build_error(const char *json, eg_error *err) {
    eg_graph *g = NULL;
    eg_code rc = eg_graph_new(json, strlen(json), &g, err);
    CHECK(rc == err->code);
    CHECK((rc == EG_OK) == (g != NULL));
    CHECK(rc != EG_OK || err->message[0] == '\0');
    eg_graph_free(g);
    return rc;
}

/* A graph, or NULL (reported) when the definition is bad. */
static eg_graph *graph(const char *json) {
    eg_error e;
    eg_graph *g = NULL;
    if (eg_graph_new(json, strlen(json), &g, &e)) fprintf(stderr, "  graph: %s\n", e.message);
    return g;
}

#define EXPECT_ERROR(json, code, needle) do { eg_error e_; \
    CHECK(build_error(json, &e_) == (code)); \
    if (!strstr(e_.message, needle)) { char m_[400]; snprintf(m_, sizeof m_, "message \"%s\" names \"%s\"", e_.message, needle); test_failed(__FILE__, __LINE__, m_); } \
} while (0)

TEST(graph_valid_minimal) {
    eg_error e;
    CHECK(build_error("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}", &e) == EG_OK);
}

TEST(graph_malformed_json) {
    EXPECT_ERROR("{\"nodes\":", EG_E_JSON, "not valid JSON");
    EXPECT_ERROR("{\"nodes\":{}} trailing", EG_E_JSON, "not valid JSON");
    EXPECT_ERROR("", EG_E_JSON, "not valid JSON");
}

TEST(graph_wrong_types_name_the_field) {
    EXPECT_ERROR("[]", EG_E_DEFINITION, "must be a JSON object");
    EXPECT_ERROR("{\"nodes\":[],\"entryPoint\":\"a\"}", EG_E_DEFINITION, "'nodes'");
    EXPECT_ERROR("{\"nodes\":{\"a\":{\"kind\":\"robot\"}},\"entryPoint\":\"a\"}", EG_E_DEFINITION, "nodes.a.kind");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":5},\"entryPoint\":\"a\"}", EG_E_DEFINITION, "edges.a");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":{\"path\":\"x\",\"oops\":1}},\"entryPoint\":\"a\"}", EG_E_DEFINITION, "unknown field 'oops'");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\",\"maxSteps\":0}", EG_E_DEFINITION, "maxSteps");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\",\"state\":{\"reducers\":{\"x\":\"avg2\"}}}", EG_E_DEFINITION, "state.reducers.x");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\",\"nodez\":1}", EG_E_DEFINITION, "nodez");
}

TEST(graph_unknown_edge_target) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"b\"},\"entryPoint\":\"a\"}", EG_E_UNKNOWN_NODE, "'b'");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":[\"__end__\",\"zz\"]},\"entryPoint\":\"a\"}", EG_E_UNKNOWN_NODE, "'zz'");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":{\"path\":\"k\",\"cases\":{\"v\":\"q\"},\"default\":\"__end__\"}},\"entryPoint\":\"a\"}", EG_E_UNKNOWN_NODE, "'q'");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\",\"ghost\":\"a\"},\"entryPoint\":\"a\"}", EG_E_UNKNOWN_NODE, "'ghost'");
}

TEST(graph_missing_entry) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"}}", EG_E_MISSING_ENTRY, "entryPoint");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"b\"}", EG_E_MISSING_ENTRY, "'b'");
}

TEST(graph_duplicate_names) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{},\"a\":{}},\"edges\":{\"a\":\"__end__\"},\"entryPoint\":\"a\"}", EG_E_DUPLICATE_NODE, "'a'");
}

TEST(graph_unreachable_node) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{},\"lost\":{}},\"edges\":{\"a\":\"__end__\",\"lost\":\"__end__\"},\"entryPoint\":\"a\"}", EG_E_UNREACHABLE, "'lost'");
    /* A router that declares no targets may reach anything. */
    eg_error e;
    CHECK(build_error("{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":{\"router\":\"r\"},\"b\":\"__end__\"},\"entryPoint\":\"a\"}", &e) == EG_OK);
}

TEST(graph_static_self_loop) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"a\"},\"entryPoint\":\"a\"}", EG_E_SELF_LOOP, "'a'");
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":[\"a\",\"__end__\"]},\"entryPoint\":\"a\"}", EG_E_SELF_LOOP, "'a'");
    /* A conditional self-loop is fine: it can end. */
    eg_error e;
    CHECK(build_error("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":{\"path\":\"done\",\"cases\":{\"true\":\"__end__\"},\"default\":\"a\"}},\"entryPoint\":\"a\"}", &e) == EG_OK);
}

TEST(graph_end_with_edges) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"__end__\",\"__end__\":\"a\"},\"entryPoint\":\"a\"}", EG_E_END_HAS_EDGES, "__end__");
    EXPECT_ERROR("{\"nodes\":{\"a\":{},\"end\":{\"kind\":\"end\"}},\"edges\":{\"a\":\"end\",\"end\":\"a\"},\"entryPoint\":\"a\"}", EG_E_END_HAS_EDGES, "'end'");
}

TEST(graph_missing_edge) {
    EXPECT_ERROR("{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\"},\"entryPoint\":\"a\"}", EG_E_MISSING_EDGE, "'b'");
}

TEST(graph_hash_ignores_key_order_and_sees_changes) {
    const char *a = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";
    const char *b = "{\"entryPoint\":\"a\",\"edges\":{\"b\":\"__end__\",\"a\":\"b\"},\"nodes\":{\"b\":{},\"a\":{}}}";
    const char *c = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"__end__\",\"b\":\"a\"},\"entryPoint\":\"b\"}";
    /* maxSteps is a run limit, not the graph's shape: tuning it keeps stored checkpoints valid. */
    const char *d = "{\"nodes\":{\"a\":{},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\",\"maxSteps\":5}";
    eg_graph *ga = graph(a), *gb = graph(b), *gc = graph(c), *gd = graph(d);
    CHECK(ga && gb && gc && gd);
    if (ga && gb && gc && gd) {
        CHECK_STR(eg_graph_hash(ga), eg_graph_hash(gb));
        CHECK(strcmp(eg_graph_hash(ga), eg_graph_hash(gc)) != 0);
        CHECK_STR(eg_graph_hash(ga), eg_graph_hash(gd));
        CHECK(strlen(eg_graph_hash(ga)) == 16);
    }
    eg_graph_free(ga); eg_graph_free(gb); eg_graph_free(gc); eg_graph_free(gd);
    /* A node's retry, timeoutMs and description are settings too. */
    const char *tuned = "{\"nodes\":{\"a\":{\"timeoutMs\":500,\"retry\":{\"attempts\":3},\"description\":\"x\"},\"b\":{}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\"}";
    ga = graph(a);
    eg_graph *gt = graph(tuned);
    CHECK(ga && gt);
    if (ga && gt) CHECK_STR(eg_graph_hash(ga), eg_graph_hash(gt));
    eg_graph_free(ga); eg_graph_free(gt);
}

/* The hash is worked out on first use (only checkpoints need it): the value the eager
 * hash of a build before that gave for this definition, the same when asked again. */
TEST(graph_hash_on_first_use_keeps_its_value) {
    const char *def = "{\"nodes\":{\"a\":{\"handler\":\"a\",\"timeoutMs\":500,\"retry\":{\"attempts\":3},\"description\":\"x\",\"jumpTarget\":true},"
                      "\"b\":{\"join\":false}},\"edges\":{\"a\":\"b\",\"b\":\"__end__\"},\"entryPoint\":\"a\",\"maxSteps\":5,"
                      "\"state\":{\"reducers\":{\"log\":\"concat\"},\"defaults\":{\"log\":[1,2.5,\"\\u00e9\"]}},\"name\":\"g\"}";
    eg_graph *g = graph(def);
    CHECK(g != NULL);
    if (g) {
        CHECK_STR(eg_graph_hash(g), "5467f33c8a1324f2");
        CHECK_STR(eg_graph_hash(g), "5467f33c8a1324f2");
    }
    eg_graph_free(g);
    /* Alike nodes share a hash (the last alike one's): ones that differ by a setting, a member's
     * order or a value are still told apart, with the eager hash's value. */
    g = graph("{\"nodes\":{\"a\":{\"jumpTarget\":true,\"join\":false},\"b\":{\"jumpTarget\":true,\"join\":false},"
              "\"c\":{\"jumpTarget\":true,\"join\":false,\"timeoutMs\":5},\"d\":{\"join\":false,\"jumpTarget\":true},"
              "\"e\":{\"jumpTarget\":false,\"join\":false},\"f\":{\"jumpTarget\":true,\"join\":false}},"
              "\"edges\":{\"a\":\"b\",\"b\":\"c\",\"c\":\"d\",\"d\":\"e\",\"e\":\"f\",\"f\":\"__end__\"},\"entryPoint\":\"a\"}");
    CHECK(g != NULL);
    if (g) CHECK_STR(eg_graph_hash(g), "1ff5ea9240b699e3");
    eg_graph_free(g);
    /* A graph freed without its hash ever asked for frees the definition it kept (ASan's leak check). */
    eg_graph_free(graph(def));
}

TEST(graph_long_names_are_cut_in_messages) {
    static char json[4200];
    char name[4001];
    memset(name, 'x', 4000);
    name[4000] = '\0';
    snprintf(json, sizeof json, "{\"nodes\":{\"a\":{}},\"edges\":{\"a\":\"%s\"},\"entryPoint\":\"a\"}", name);
    eg_error e;
    CHECK(build_error(json, &e) == EG_E_UNKNOWN_NODE);
    CHECK(strlen(e.message) < sizeof e.message);
    CHECK(strstr(e.message, "...") != NULL);
}

TEST(code_names_are_stable) {
    CHECK_STR(eg_code_name(EG_E_MAX_STEPS), "MAX_STEPS_EXCEEDED");
    CHECK_STR(eg_code_name(9999), "UNKNOWN");
    CHECK_STR(eg_status_name(EG_STATUS_PAUSED), "PAUSED");
    CHECK_STR(eg_status_name(-1), "UNKNOWN");
}

/* A chain of `n` nodes n0 -> n1 -> ... -> END, its nodes listed forwards or
 * backwards, with `extra` spliced in before the closing braces of "nodes". */
static char *chain(int n, bool backwards, const char *extra) {
    size_t cap = (size_t)n * 48 + strlen(extra) + 128, len = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    len += (size_t)snprintf(s + len, cap - len, "{\"entryPoint\":\"n0\",\"nodes\":{");
    for (int k = 0; k < n; k++) len += (size_t)snprintf(s + len, cap - len, "%s\"n%d\":{}", k ? "," : "", backwards ? n - 1 - k : k);
    len += (size_t)snprintf(s + len, cap - len, "%s},\"edges\":{", extra);
    for (int k = 0; k < n; k++) {
        int i = backwards ? n - 1 - k : k;
        if (i + 1 < n) len += (size_t)snprintf(s + len, cap - len, "%s\"n%d\":\"n%d\"", k ? "," : "", i, i + 1);
        else len += (size_t)snprintf(s + len, cap - len, "%s\"n%d\":\"__end__\"", k ? "," : "", i);
    }
    snprintf(s + len, cap - len, "}}");
    return s;
}

/* Names resolve through an index, not a scan: thousands of similar names,
 * in either order, each edge to its own node (a wrong lookup would leave a
 * node unreachable or loop), and the defects at the far end still found. */
TEST(graph_thousands_of_nodes_resolve_by_name) {
    char *forwards = chain(5000, false, ""), *backwards = chain(5000, true, "");
    char *twice = chain(5000, false, ",\"n4999\":{}"), *stray = chain(5000, false, ",\"n5000\":{}");
    CHECK(forwards && backwards && twice && stray);
    if (forwards && backwards && twice && stray) {
        eg_graph *a = graph(forwards), *b = graph(backwards);
        CHECK(a && b);
        if (a && b) CHECK_STR(eg_graph_hash(a), eg_graph_hash(b));
        eg_graph_free(a);
        eg_graph_free(b);
        EXPECT_ERROR(twice, EG_E_DUPLICATE_NODE, "'n4999'");
        EXPECT_ERROR(stray, EG_E_MISSING_EDGE, "'n5000'");
    }
    free(forwards); free(backwards); free(twice); free(stray);
}

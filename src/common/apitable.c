/* apitable.c -- lookups over the generated tables (gen/apitable.c). */
#include <string.h>

#include "apitable.h"
#include "wip15/format.h"

/* Not instrumented by AddressSanitizer, no library call: the tracer's
 * dlsym (src/tracer/resolve.c w15_known) asks while a preloaded ASan
 * runtime may still be setting itself up. */
static __attribute__((no_sanitize("address"))) int name_cmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

__attribute__((no_sanitize("address"))) int w15_func_lookup(const char *name)
{
    uint32_t lo = 0, hi = w15_nfuncs + w15_npseudo;
    if (!name)
        return -1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint16_t f = w15_funcs_by_name[mid];
        int c = name_cmp(name, w15_strpool + w15_funcs[f].name);
        if (c == 0)
            return f;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

int w15_group_lookup(const char *name)
{
    /* Groups are emitted sorted by name (bytewise). */
    uint32_t lo = 0, hi = w15_ngroups;
    if (!name)
        return -1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, w15_str(w15_groups[mid].name));
        if (c == 0)
            return (int)mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* In e[0..n) (sorted by value, preferred name first among equal values)
 * the best name for `value`: the first one defined for `api_mask`, else the
 * first one.  NULL when the value is absent. */
uint32_t w15_enum_lower_bound(const w15_enum_sig_t *e, uint32_t n, uint64_t value)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (e[mid].value < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const char *find(const w15_enum_sig_t *e, uint32_t n, uint64_t value, uint32_t api_mask)
{
    uint32_t lo = w15_enum_lower_bound(e, n, value);
    if (lo >= n || e[lo].value != value)
        return NULL;
    if (api_mask) {
        for (uint32_t i = lo; i < n && e[i].value == value; i++)
            if (e[i].api & api_mask)
                return w15_str(e[i].name);
    }
    return w15_str(e[lo].name);
}

const char *w15_group_enum_name(uint32_t g, uint64_t value, uint32_t api_mask)
{
    if (g >= w15_ngroups)
        return NULL;
    const w15_group_sig_t *gr = &w15_groups[g];
    if (gr->first_enum > w15_nenums || gr->nenums > w15_nenums - gr->first_enum)
        return NULL;
    return find(w15_enums + gr->first_enum, gr->nenums, value, api_mask);
}

const char *w15_enum_name(uint32_t g, uint64_t value, uint32_t api_mask)
{
    if (g != W15_NO_GROUP && g < w15_ngroups) {
        uint8_t type = w15_groups[g].type;
        if (type != W15_GROUP_ENUM && type != W15_GROUP_BITMASK)
            return NULL; /* an object namespace: values are names, not enums */
        const char *s = w15_group_enum_name(g, value, api_mask);
        if (s)
            return s;
    }
    return find(w15_all_enums, w15_nall_enums, value, api_mask);
}

static const w15_pname_count_t *pname_find(uint32_t pname)
{
    uint32_t lo = 0, hi = w15_npname_counts;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w15_pname_counts[mid].pname < pname)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w15_npname_counts && w15_pname_counts[lo].pname == pname ? &w15_pname_counts[lo] : NULL;
}

uint32_t w15_pname_count(uint32_t pname)
{
    const w15_pname_count_t *p = pname_find(pname);
    return p ? p->count : 0;
}

uint32_t w15_pname_flags(uint32_t pname)
{
    const w15_pname_count_t *p = pname_find(pname);
    return p ? p->flags : 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool_pkt_condense() (npool_pkt_keep.h): kept packets moved into
 * fragments of their own size from each lcore's cache of kept packets.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_spinlock.h>

#include "npool_pkt.h"
#include "npool_pkt_keep.h"
#include "npool_core_pvt.h"
#include "npool_log.h"

/*
 * Whether segment @p m, whose fragment is in chunk @p c, should move: a
 * chunk that is not one of kept packets is shared with packets of any
 * lifetime; one of kept packets only once its live fragments (counted
 * at @p m's size) fill less than half of it, and never the one the
 * caller's cache @p keep is filling.
 */
static int
keep_wanted(const struct npool_frag_cache *keep, const struct rte_mbuf *m,
		const struct npool_chunk *c)
{
	uint64_t live;

	if (!(c->flags & NPOOL_CHUNK_F_KEEP))
		return 1;
	if (c == keep->chunk)
		return 0;
	/* No cache holds it (another lcore's keep cache adds its bias,
	 * which makes it look full): the count is its live fragments. */
	live = __atomic_load_n(&c->refcnt, __ATOMIC_RELAXED);
	return live * ((uint64_t)m->buf_len + NPOOL_SHINFO_SIZE) * 2 < c->size;
}

/* Move segment @p m into a fragment of the keep cache of slot @p slot of
 * @p np: 1, 0 when it stays, -ENOMEM. */
static int
keep_seg(struct npool *np, unsigned int slot, struct rte_mbuf *m)
{
	struct npool_lcore *lc = &np->lc[slot];
	struct rte_mbuf_ext_shared_info *shinfo;
	const uint32_t len = m->data_len;
	char *old = m->buf_addr, *frag;
	struct npool_chunk *c;
	uint32_t fragsz;
	rte_iova_t iova;

	if (!npool_pkt_is_npool(m) || rte_mbuf_refcnt_read(m) != 1 ||
			rte_mbuf_ext_refcnt_read(m->shinfo) != 1)
		return 0;
	c = npool_arena_chunk(&np->arena, old);
	if (c == NULL && npool_owner_pvt(old, &c) == NULL)
		return 0;
	fragsz = npool_pkt_fragsz_pvt(np->headroom, len);
	if (!keep_wanted(&lc->keep, m, c) || fragsz > NPOOL_CHUNK_SIZE)
		return 0;
	rte_spinlock_lock(&lc->lock);
	frag = npool_frag_cache_alloc_pvt(&lc->keep, fragsz,
			-(uint32_t)RTE_CACHE_LINE_SIZE, &iova);
	rte_spinlock_unlock(&lc->lock);
	if (frag == NULL)
		return -ENOMEM;
	memcpy(frag + np->headroom, rte_pktmbuf_mtod(m, char *), len);
	/* The buffer fields of the head, as npool_pkt_attach_frag_pvt()
	 * writes them; the rest of the packet stays. */
	shinfo = (struct rte_mbuf_ext_shared_info *)
		(frag + fragsz - NPOOL_SHINFO_SIZE);
	shinfo->free_cb = npool_pkt_free_cb;
	shinfo->fcb_opaque = NULL;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
	m->buf_addr = frag;
	rte_mbuf_iova_set(m, iova);
	m->buf_len = (uint16_t)(fragsz - NPOOL_SHINFO_SIZE);
	m->data_off = (uint16_t)np->headroom;
	m->shinfo = shinfo;
	npool_free_frag(old);
	NPOOL_STAT_ADD_NP(np, slot, guarded_allocs, 1);
	NPOOL_STAT_ADD_NP(np, slot, condensed, 1);
	return 1;
}

/* npool_pkt_condense() of @p m on slot @p slot of @p np. */
static int
keep_pkt(struct npool *np, unsigned int slot, struct rte_mbuf *m)
{
	int moved = 0, ret = 0;

	for (; m != NULL; m = m->next) {
		int r = keep_seg(np, slot, m);

		if (r < 0)
			ret = r;
		else
			moved += r;
	}
	return ret < 0 ? ret : moved;
}

int
npool_pkt_condense(struct rte_mbuf *m)
{
	unsigned int slot = npool_slot();
	struct npool *np = npool_lcore_np[slot];
	int ret;

	if (m == NULL)
		return npool_err_pvt(EINVAL);
	if (np == NULL)
		return npool_err_pvt(ENODEV);
	ret = keep_pkt(np, slot, m);
	return ret < 0 ? npool_err_pvt(-ret) : ret;
}

unsigned int
npool_pkt_condense_bulk(struct rte_mbuf **pkts, unsigned int n)
{
	unsigned int slot = npool_slot(), i, moved = 0;
	struct npool *np = npool_lcore_np[slot];

	if (np == NULL) {
		rte_errno = ENODEV;
		return 0;
	}
	for (i = 0; i < n; i++) {
		int r;

		if (pkts[i] == NULL)
			continue;
		r = keep_pkt(np, slot, pkts[i]);
		if (r < 0)
			rte_errno = -r;
		else
			moved += (unsigned int)r;
	}
	return moved;
}

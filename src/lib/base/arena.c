/*
 * arena.c - a bump allocator over big blocks, freed at once (base.h).
 * Blocks start at 4 KiB, so that a small document costs one small
 * block, and double up to 1 MiB; an allocation larger than a quarter of
 * the next block gets a block of its own, so that the space left in the
 * current block is not thrown away for it.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base.h"

#ifndef BENCHLAB_ARENA_PER_ALLOC
#if defined(__SANITIZE_ADDRESS__) /* gcc -fsanitize=address */
#define BENCHLAB_ARENA_PER_ALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) /* clang */
#define BENCHLAB_ARENA_PER_ALLOC 1
#endif
#endif
#endif
#ifndef BENCHLAB_ARENA_PER_ALLOC
#define BENCHLAB_ARENA_PER_ALLOC 0
#endif

#define FIRST_BLOCK ((size_t)4 << 10)
#define MAX_BLOCK ((size_t)1 << 20)

struct bl__arena_block {
    struct bl__arena_block *next;
    max_align_t data[]; /* the allocations, aligned for any type */
};

void bl__arena_init(struct bl__arena *a)
{
    *a = (struct bl__arena){.per_alloc = BENCHLAB_ARENA_PER_ALLOC};
}

/* A block of `size` bytes of data, or NULL. */
static struct bl__arena_block *new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(struct bl__arena_block))
        return NULL;
    return malloc(sizeof(struct bl__arena_block) + size);
}

/* An allocation of its own, linked behind head so that head's free space
 * stays in use. */
static void *alone(struct bl__arena *a, size_t size)
{
    struct bl__arena_block *b = new_block(size ? size : 1);
    if (!b)
        return NULL;
    if (a->head) {
        b->next = a->head->next;
        a->head->next = b;
    } else {
        b->next = NULL;
        a->head = b; /* with no free space: the next small allocation starts a block */
    }
    return b->data;
}

void *bl__arena_alloc(struct bl__arena *a, size_t size, size_t align)
{
    BL__CHECK(align && (align & (align - 1)) == 0 && align <= alignof(max_align_t));
    if (a->per_alloc)
        return alone(a, size);
    uintptr_t p = ((uintptr_t)a->next + (align - 1)) & ~(uintptr_t)(align - 1);
    if (a->next && p <= (uintptr_t)a->end && (uintptr_t)a->end - p >= size) {
        a->next = (char *)p + size;
        return (void *)p;
    }
    if (!a->block_size)
        a->block_size = FIRST_BLOCK;
    if (size > a->block_size / 4)
        return alone(a, size);
    struct bl__arena_block *b = new_block(a->block_size);
    if (!b)
        return NULL;
    b->next = a->head;
    a->head = b;
    a->next = (char *)b->data + size; /* data is aligned for any align */
    a->end = (char *)b->data + a->block_size;
    if (a->block_size < MAX_BLOCK)
        a->block_size *= 2;
    return b->data;
}

void bl__arena_fini(struct bl__arena *a)
{
    struct bl__arena_block *b = a->head;
    while (b) {
        struct bl__arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->next = a->end = NULL;
    a->block_size = 0;
}

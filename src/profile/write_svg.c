/*
 * write_svg.c - a self-contained flame graph: one SVG file, its script
 * inline (search with highlight and matched share, click to zoom, Escape or
 * "Reset zoom" to return), nothing fetched. Frames sit on the root as in
 * flamegraph.pl, children in name order, widths proportional to inclusive
 * value; frames narrower than 0.1 pixel are left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/base/base.h" /* bl__fnv1a, inline */
#include "profile_int.h"

#define SVG_WIDTH 1200.0
#define SVG_PAD 10.0
#define FRAME_H 16

static void xml_text(FILE *out, const char *s, size_t max_chars)
{
    size_t n = 0;
    for (; *s && n < max_chars; s++, n++) {
        switch (*s) {
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

/* A frame's colour is its name's: the same function the same colour in every graph. */
static unsigned name_hash(const char *s)
{
    uint64_t h = bl__fnv1a(BL__FNV1A_BASIS, s, strlen(s));
    return (unsigned)(h ^ h >> 32);
}

static int max_depth(const bl_profile *p)
{
    int deepest = 0;
    for (size_t i = 1; i < p->n_nodes; i++) {
        int d = 0;
        for (uint32_t n = (uint32_t)i; n != 0; n = p->nodes[n].parent)
            d++;
        if (d > deepest)
            deepest = d;
    }
    return deepest;
}

struct svg {
    const bl_profile *p;
    FILE *out;
    double scale; /* pixels per ns */
    int height;
};

static void frame(struct svg *s, const char *name, double x, int depth, double w, double value)
{
    double total = s->p->nodes[0].total;
    double y = s->height - 40 - (depth + 1) * FRAME_H;
    unsigned h = name_hash(name);
    int r = 205 + (int)(h % 50), g = (int)((h >> 8) % 230), b = (int)((h >> 16) % 55);
    if (name[0] == '[')
        r = g = b = 200;
    fprintf(s->out, "<g class=\"f\"><title>");
    xml_text(s->out, name, SIZE_MAX);
    if (s->p->kind == BL_PROFILE_SAMPLED && s->p->unit_ns > 1)
        fprintf(s->out, " (%.0f samples, %.2f%%)", value / s->p->unit_ns,
                total > 0 ? 100 * value / total : 0);
    else
        fprintf(s->out, " (%.3f ms, %.2f%%)", value / 1e6, total > 0 ? 100 * value / total : 0);
    fprintf(s->out,
            "</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
            "fill=\"rgb(%d,%d,%d)\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\">",
            x, y, w, FRAME_H - 1, r, g, b, x + 3, y + 11.5);
    size_t fits = w > 20 ? (size_t)((w - 6) / 7) : 0;
    if (fits >= strlen(name))
        xml_text(s->out, name, SIZE_MAX);
    else if (fits > 2) {
        xml_text(s->out, name, fits - 2);
        fputs("..", s->out);
    }
    fputs("</text></g>\n", s->out);
}

static int frames(struct svg *s, uint32_t node, double x, int depth)
{
    const struct bl__node *nd = &s->p->nodes[node];
    double w = nd->total * s->scale;
    if (w < 0.1)
        return 0;
    frame(s, node == 0 ? "all" : s->p->funcs[nd->func].name, x, depth, w, nd->total);
    size_t n;
    uint32_t *kids = bl__profile_children(s->p, node, &n, 1);
    if (!kids)
        return -ENOMEM;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++) {
        err = frames(s, kids[i], x, depth + 1);
        x += s->p->nodes[kids[i]].total * s->scale;
    }
    free(kids);
    return err;
}

static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "var W="
    "1180"
    ",X0=10,zoomed=null;\n"
    "function fr(){return Array.prototype.slice.call(document.querySelectorAll('g.f'));}\n"
    "function geo(g){var r=g.querySelector('rect');if(!r.hasAttribute('data-x')){"
    "r.setAttribute('data-x',r.getAttribute('x'));r.setAttribute('data-w',r.getAttribute('width'));"
    "g.querySelector('text').setAttribute('data-t',g.querySelector('text').textContent);}"
    "return "
    "{r:r,x:+r.getAttribute('data-x'),w:+r.getAttribute('data-w'),y:+r.getAttribute('y')};}\n"
    "function name(g){var t=g.querySelector('title').textContent;return t.replace(/ "
    "\\([^(]*\\)$/,'');}\n"
    "function draw(x0,w0,y0){fr().forEach(function(g){var q=geo(g),t=g.querySelector('text');"
    "var inside=q.x>=x0-1e-6&&q.x+q.w<=x0+w0+1e-6;var below=q.y>y0;"
    "var nx,nw;if(inside){nx=X0+(q.x-x0)*W/w0;nw=q.w*W/w0;}else if(below){nx=X0;nw=W;}"
    "else{g.style.display='none';return;}g.style.display='';q.r.setAttribute('x',nx);"
    "q.r.setAttribute('width',nw);t.setAttribute('x',nx+3);var full=t.getAttribute('data-t');"
    "var nm=name(g);var fits=Math.floor((nw-6)/7);"
    "t.textContent=fits>=nm.length?nm:(fits>2?nm.substring(0,fits-2)+'..':'');"
    "g.style.opacity=below&&!inside?0.5:1;void full;});}\n"
    "function zoom(g){var q=geo(g);zoomed=g;draw(q.x,q.w,q.y);"
    "document.getElementById('reset').style.display='';}\n"
    "function "
    "reset(){zoomed=null;draw(X0,W,1e9);document.getElementById('reset').style.display='none';}\n"
    "function search(){var re=prompt('Search (regular expression)','');if(re===null)return;"
    "var rx;try{rx=new RegExp(re);}catch(e){alert(e);return;}var hits=[];"
    "fr().forEach(function(g){var r=g.querySelector('rect');"
    "if(!r.hasAttribute('data-fill'))r.setAttribute('data-fill',r.getAttribute('fill'));"
    "if(re!==''&&rx.test(name(g))){r.setAttribute('fill','rgb(230,0,230)');var q=geo(g);"
    "hits.push([q.x,q.x+q.w]);}else r.setAttribute('fill',r.getAttribute('data-fill'));});"
    "hits.sort(function(a,b){return a[0]-b[0];});var sum=0,end=-1;hits.forEach(function(h){"
    "if(h[0]>=end){sum+=h[1]-h[0];end=h[1];}else if(h[1]>end){sum+=h[1]-end;end=h[1];}});"
    "document.getElementById('matched').textContent=re===''?'':"
    "'Matched: '+(100*sum/W).toFixed(2)+'%';}\n"
    "document.addEventListener('click',function(e){var g=e.target.closest?e.target.closest('g.f'):"
    "null;if(g)zoom(g);});\n"
    "document.addEventListener('keydown',function(e){if(e.key==='Escape')reset();"
    "if((e.ctrlKey&&e.key==='f')||e.key==='/'){e.preventDefault();search();}});\n"
    "]]></script>\n";

int bl__profile_write_svg(const bl_profile *p, FILE *out)
{
    struct svg s = {p, out, 0, 0};
    int depth = max_depth(p) + 1;
    s.height = (depth + 1) * FRAME_H + 60;
    double total = p->nodes[0].total;
    s.scale = total > 0 ? (SVG_WIDTH - 2 * SVG_PAD) / total : 0;
    fprintf(out,
            "<?xml version=\"1.0\" standalone=\"no\"?>\n"
            "<svg version=\"1.1\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n"
            "<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000;"
            "pointer-events:none}g.f:hover rect{stroke:#000;stroke-width:0.5}"
            ".ui{cursor:pointer}</style>\n"
            "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
            "<text x=\"600\" y=\"20\" text-anchor=\"middle\" style=\"font-size:16px\">"
            "benchlab flame graph (%s)</text>\n"
            "<text id=\"reset\" class=\"ui\" x=\"10\" y=\"20\" style=\"display:none;"
            "pointer-events:all\" onclick=\"reset()\">Reset zoom</text>\n"
            "<text class=\"ui\" x=\"1120\" y=\"20\" style=\"pointer-events:all\" "
            "onclick=\"search()\">Search</text>\n"
            "<text id=\"matched\" x=\"1100\" y=\"%d\" text-anchor=\"end\"></text>\n",
            SVG_WIDTH, s.height, SVG_WIDTH, s.height,
            p->kind == BL_PROFILE_TRACED ? "traced" : "sampled", s.height - 10);
    fputs(script, out);
    int err = frames(&s, 0, SVG_PAD, 0);
    fputs("</svg>\n", out);
    return err;
}

/* report --format html: one self-contained page (inline CSS, SVG and a
 * little script; nothing fetched) with the flame graph of the point tree per
 * core type, the rank x label heatmap and every table of the report. Each
 * table cell carries its value as `report --format json` gives it
 * (data-v), which tests/report_html.test checks in a browser. */
#include "report_html.h"

#include <stdio.h>
#include <string.h>

#include "report_flame.h"
#include "report_heatmap.h"
#include "report_markup.h"

static const char style[] =
	"body{font:14px/1.4 'DejaVu Sans',sans-serif;margin:16px 24px;color:#222;background:#fff}"
	"h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px;border-bottom:1px solid #ccc}"
	".inputs{color:#555;font-size:12px;word-break:break-all}"
	"table.data{border-collapse:collapse;margin:6px 0 14px;font-size:12px}"
	"table.data caption{text-align:left;font-weight:bold;padding:4px 0}"
	"table.data th,table.data td{border:1px solid #ddd;padding:2px 6px}"
	"table.data th{background:#f3f3f3;cursor:pointer;user-select:none}"
	"table.data td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"table.data tr:hover td{background:#fff6d8}"
	".scroll{overflow-x:auto}svg.flame,svg.heatmap{max-width:100%;height:auto}"
	"#tip{position:fixed;display:none;background:#222;color:#fff;padding:3px 7px;border-radius:3px;"
	"font-size:12px;pointer-events:none;white-space:pre}";

/* The tooltip of the heatmap, the sorting of the tables; data-ready says
 * the script ran to its end (tests/report_html.test waits for it). */
static const char script[] =
	"(function(){'use strict';\n"
	"var tip=document.getElementById('tip');\n"
	"var hm=document.getElementById('heatmap');\n"
	"var data=JSON.parse(document.getElementById('heatmap-data').textContent);\n"
	"function us(ns){return ns>=1e6?(ns/1e6).toFixed(3)+' ms':(ns/1e3).toFixed(3)+' us';}\n"
	"if(hm){\n"
	" var cw=+hm.dataset.cellWidth,left=+hm.dataset.left,rh=+hm.dataset.rowHeight;\n"
	" hm.addEventListener('mousemove',function(ev){\n"
	"  var b=hm.getBoundingClientRect(),s=hm.viewBox.baseVal.width/b.width;\n"
	"  var x=(ev.clientX-b.left)*s,y=(ev.clientY-b.top)*s;\n"
	"  var k=Math.floor((x-left)/cw),r=Math.floor(y/rh);\n"
	"  if(k<0||r<0||r>=data.rows.length||k>=data.ranks.length){tip.style.display='none';return;}\n"
	"  var row=data.rows[r],med=+hm.querySelectorAll('.heat-row')[r].dataset.medianNs;\n"
	"  var ns=row.ns[k];\n"
	"  tip.textContent=data.ranks[k]+'\\n'+row.label+' ('+row.core+')\\n'+(ns?us(ns)+(med?'  '+(ns/med).toFixed(2)+'x the median':''):'no slice');\n"
	"  tip.style.left=(ev.clientX+12)+'px';tip.style.top=(ev.clientY+12)+'px';tip.style.display='block';\n"
	" });\n"
	" hm.addEventListener('mouseleave',function(){tip.style.display='none';});\n"
	"}\n"
	"Array.prototype.forEach.call(document.querySelectorAll('table.data'),function(t){\n"
	" Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){\n"
	"  th.addEventListener('click',function(){\n"
	"   var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),num=th.dataset.type!=='text';\n"
	"   var dir=th.dataset.dir==='1'?-1:1;th.dataset.dir=dir===1?'1':'-1';\n"
	"   rows.sort(function(a,b){var x=a.cells[i].dataset.v,y=b.cells[i].dataset.v;\n"
	"    return dir*(num?(+x)-(+y):(x<y?-1:x>y?1:0));});\n"
	"   rows.forEach(function(r){body.appendChild(r);});\n"
	"  });\n"
	" });\n"
	"});\n"
	"document.body.setAttribute('data-ready','1');\n"
	"})();\n";

static const char *type_name(enum report_col_type t)
{
	switch (t) {
	case RC_TEXT: return "text";
	case RC_COUNT: return "count";
	case RC_NS: return "ns";
	case RC_RATIO: return "ratio";
	default: return "factor";
	}
}

static void table_html(struct strbuf *b, const struct report_table *t)
{
	char buf[64];

	markup_printf(b, "<div class=\"scroll\"><table class=\"data\" id=\"t-%s\" data-table=\"%s\"><caption>", t->name,
		      t->name);
	markup_text(b, t->title);
	markup_printf(b, " (%zu rows)</caption>\n<thead><tr>", t->nrows);
	for (size_t c = 0; c < t->ncols; c++) {
		markup_printf(b, "<th data-key=\"%s%s\" data-type=\"%s\">", t->cols[c].name,
			      t->cols[c].type == RC_NS ? "_ns" : "", type_name(t->cols[c].type));
		markup_text(b, report_column_head(&t->cols[c], buf, sizeof(buf)));
		strbuf_puts(b, "</th>");
	}
	strbuf_puts(b, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_puts(b, "<tr>");
		for (size_t c = 0; c < t->ncols; c++) {
			const char *shown = report_cell_format(t, r, c, buf, sizeof(buf));
			if (t->cols[c].type == RC_TEXT) {
				strbuf_puts(b, "<td data-v=\"");
				markup_text(b, shown);
				strbuf_puts(b, "\">");
			} else {
				markup_printf(b, "<td class=\"n\" data-v=\"%.15g\">", report_cell_json(t, r, c));
			}
			markup_text(b, shown);
			strbuf_puts(b, "</td>");
		}
		strbuf_puts(b, "</tr>\n");
	}
	strbuf_puts(b, "</tbody></table></div>\n");
}

void report_html_page(struct strbuf *b, const char *inputs, struct report_views *v,
		      struct report_table *const *tables, size_t ntables)
{
	strbuf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		       "<meta name=\"viewport\" content=\"width=device-width\">\n<title>autotrace report: ");
	markup_text(b, inputs);
	markup_printf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>autotrace report</h1>\n<div class=\"inputs\">",
		      style);
	markup_text(b, inputs);
	markup_printf(b, " &middot; %zu ranks</div>\n", report_views_ranks(v));
	strbuf_puts(b, "<h2 id=\"flame-title\">Where the time goes: the point tree per core type</h2>\n"
		       "<div class=\"scroll\" id=\"flame\">\n");
	report_flame_svg(b, v, 1200);
	strbuf_puts(b, "</div>\n<h2 id=\"heatmap-title\">Ranks against each other: time per rank and label</h2>\n"
		       "<div class=\"scroll\">\n");
	report_heatmap_svg(b, v, 1200);
	strbuf_puts(b, "</div>\n<script type=\"application/json\" id=\"heatmap-data\">");
	report_heatmap_json(b, v);
	strbuf_puts(b, "</script>\n<h2 id=\"tables-title\">Tables</h2>\n");
	for (size_t i = 0; i < ntables; i++)
		table_html(b, tables[i]);
	markup_printf(b, "<div id=\"tip\"></div>\n<script>\n%s</script>\n</body></html>\n", script);
}

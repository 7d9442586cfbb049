// map.js: the board's map, shared by the designer page (app.js) and the
// play page (play.js). A plain script: it defines the global `TtrMap`.
//
//   TtrMap.draw(svgElement, board, options) -> { unit } or null
//
// `board` is a board view: cities [{name, x, y}] and routes [{label, a, b,
// length, points, colours, pair_size, pair_index, first_track?}]. Every
// track is one <line class="route" data-route="LABEL">, the tracks of a
// route side by side (pair_size/pair_index place the routes of one city
// pair beside each other), each in its colour; cities are circles with
// their names.
//
// options.track(t) styles one track. `t` is {route, routeNumber (index in
// board.routes), track (index in route.colours), trackIndex (the track's
// index on the board: route.first_track + track, or counted in file
// order), colour, length (of the drawn line, in map units), unit (one
// map unit)}. It returns (every field optional):
//   stroke     colour of the line (default: the track's colour)
//   width      in units (default 1.6)
//   opacity    stroke opacity (default 1)
//   halo       true (#111) or a colour: a wider line drawn under it
//   haloWidth  in units (default 4.2); haloOpacity (default: none set)
//   haloDash   [on, off] in units: the halo dashed (the play page's tunnels)
//   className  classes added to "route"
//   attrs      more attributes of the line (data-*, stroke-dasharray, ...)
//   title      the tooltip (default "LABEL: N cars, P points"); "" for none
//   onClick    click handler
//   hit        width in units of a transparent line under the track that
//              takes its clicks too (for thin tracks); none by default
//   gaps       a colour: the track is cut into its cars (route.length) by
//              short strokes of this colour drawn over it (not clickable)
// options.city(c, i) styles a city: {fill, stroke, r (units), className,
// attrs, onClick, title, hit (the radius in units of a transparent disc
// that takes its clicks too: 4 by default, with onClick)}. options.labelSize is the city names' size in units (3.4).
"use strict";

var TtrMap = (function () {
  const SVG = "http://www.w3.org/2000/svg";
  const COLOURS = {
    gray: "#9a9a9a", red: "#d62828", orange: "#f77f00", yellow: "#e9c400",
    green: "#2a9d4b", blue: "#1d5fd1", pink: "#ef6fb0", white: "#f4f4f4", black: "#222",
  };

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null) node.setAttribute(k, v);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function colour(name) {
    return COLOURS[name] || "#888";
  }

  // Where each city's name goes: a fixed offset clipped names at the map's
  // edge (Boston) and let neighbours overlap (Oklahoma City, Little Rock).
  // Each name tries a few spots around its city and keeps the first inside
  // the view that overlaps no name placed before it nor another city's dot
  // (else the spot with the least overlap). Widths are estimated from the
  // characters (generously), so that it works while the map is hidden too.
  function placeLabels(cities, unit, labelSize, view) {
    const font = unit * labelSize, gap = unit * 2.6;
    const dots = cities.map((c) => [c.x - unit * 2.4, c.y - unit * 2.4, c.x + unit * 2.4, c.y + unit * 2.4]);
    const placed = [];
    const area = (a, b) => Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) *
      Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    // Cities crowded by others first: they have the fewest free spots.
    const order = cities.map((_, i) => i);
    const near = (i) => cities.filter((d) => Math.hypot(d.x - cities[i].x, d.y - cities[i].y) < font * 8).length;
    const crowd = order.map(near);
    order.sort((a, b) => crowd[b] - crowd[a] || a - b);
    const out = [];
    for (const i of order) {
      const c = cities[i];
      const w = c.name.length * font * 0.62 + font * 0.3, up = font * 0.8, down = font * 0.25;
      // [x, y (the baseline), anchor]: right-above, right-below, left-above,
      // left-below, above, below.
      const spots = [
        [c.x + gap, c.y - gap * 0.6, "start"], [c.x + gap, c.y + gap * 0.6 + up, "start"],
        [c.x - gap, c.y - gap * 0.6, "end"], [c.x - gap, c.y + gap * 0.6 + up, "end"],
        [c.x, c.y - gap * 1.1, "middle"], [c.x, c.y + gap * 1.1 + up, "middle"],
        [c.x + gap * 1.2, c.y + up * 0.35, "start"], [c.x - gap * 1.2, c.y + up * 0.35, "end"],
      ];
      let best = null;
      for (const [x, y, anchor] of spots) {
        const left = anchor === "start" ? x : anchor === "end" ? x - w : x - w / 2;
        const box = [left, y - up, left + w, y + down];
        const outside = box[0] < view[0] || box[1] < view[1] || box[2] > view[2] || box[3] > view[3];
        let overlap = placed.reduce((s, b) => s + area(box, b), 0);
        overlap += dots.reduce((s, d, j) => s + (j === i ? 0 : area(box, d)), 0);
        const cost = overlap + (outside ? 1e9 : 0);
        if (!best || cost < best.cost) best = { cost, x, y, anchor, box };
        if (cost === 0) break;
      }
      placed.push(best.box);
      out[i] = best;
    }
    return out;
  }

  function draw(map, board, options) {
    options = options || {};
    map.replaceChildren();
    if (!board || !board.cities.length) return null;
    const xs = board.cities.map((c) => c.x), ys = board.cities.map((c) => c.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const size = Math.max(x1 - x0, y1 - y0, 1);
    const pad = size * 0.06;
    const unit = size / 260;
    map.setAttribute("viewBox", `${x0 - pad} ${y0 - pad} ${x1 - x0 + 2 * pad} ${y1 - y0 + 2 * pad}`);
    const halo = svg("g"), hits = svg("g"), tracks = svg("g"), gaps = svg("g", { "pointer-events": "none" });
    const labels = svg("g");
    let next = 0;
    board.routes.forEach((r, routeNumber) => {
      const first = typeof r.first_track === "number" ? r.first_track : next;
      next = first + r.colours.length;
      const a = board.cities[r.a], b = board.cities[r.b];
      const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
      const nx = -dy / len, ny = dx / len;
      const lanes = r.colours.length * r.pair_size;
      r.colours.forEach((trackColour, i) => {
        const lane = r.pair_index * r.colours.length + i - (lanes - 1) / 2;
        const off = lane * unit * 2.2;
        const line = {
          x1: a.x + nx * off, y1: a.y + ny * off, x2: b.x + nx * off, y2: b.y + ny * off,
        };
        const style = (options.track && options.track({
          route: r, routeNumber, track: i, trackIndex: first + i, colour: trackColour, length: len, unit,
        })) || {};
        const stroke = style.stroke !== undefined ? style.stroke : colour(trackColour);
        const width = unit * (style.width !== undefined ? style.width : 1.6);
        const opacity = style.opacity !== undefined ? style.opacity : 1;
        const title = style.title !== undefined ? style.title : `${r.label}: ${r.length} cars, ${r.points} points`;
        if (style.halo) {
          halo.append(svg("line", {
            ...line, stroke: style.halo === true ? "#111" : style.halo,
            "stroke-width": unit * (style.haloWidth || 4.2), "stroke-linecap": "round",
            "stroke-opacity": style.haloOpacity,
            "stroke-dasharray": style.haloDash ? style.haloDash.map((d) => d * unit).join(" ") : undefined,
          }));
        }
        if (style.hit) {
          const hit = svg("line", {
            ...line, stroke: "#000", "stroke-opacity": 0, "stroke-width": unit * style.hit, class: "hit",
          });
          if (title) hit.append(svg("title", {}, title));
          if (style.onClick) hit.addEventListener("click", style.onClick);
          hits.append(hit);
        }
        const track = svg("line", {
          ...line, stroke, "stroke-width": width, "stroke-opacity": opacity,
          class: "route" + (style.className ? " " + style.className : ""), "data-route": r.label,
          ...(style.attrs || {}),
        });
        if (title) track.append(svg("title", {}, title));
        if (style.onClick) track.addEventListener("click", style.onClick);
        tracks.append(track);
        if (style.gaps) {
          const car = len / Math.max(r.length, 1), gap = Math.min(car * 0.12, unit * 1.2);
          gaps.append(svg("line", {
            ...line, stroke: style.gaps, "stroke-width": width * 1.05,
            "stroke-dasharray": `${gap} ${car - gap}`, "stroke-dashoffset": gap / 2,
          }));
        }
      });
    });
    const labelSize = options.labelSize || 3.4;
    const place = placeLabels(board.cities, unit, labelSize, [x0 - pad, y0 - pad, x1 + pad, y1 + pad]);
    board.cities.forEach((c, i) => {
      const style = (options.city && options.city(c, i)) || {};
      const circle = svg("circle", {
        cx: c.x, cy: c.y, r: unit * (style.r || 2.2), fill: style.fill || "#fff", stroke: style.stroke || "#333",
        "stroke-width": unit * 0.6, class: style.className, ...(style.attrs || {}),
      });
      const name = svg("text", {
        x: place[i].x, y: place[i].y, "text-anchor": place[i].anchor, class: "city", "font-size": unit * labelSize,
      }, c.name);
      if (style.onClick) {
        // A city is small: a transparent disc around it takes its clicks too.
        const hit = svg("circle", {
          cx: c.x, cy: c.y, r: unit * (style.hit || 4), fill: "#000", "fill-opacity": 0,
          class: "city-hit", "data-hit-city": i,
        });
        for (const node of [hit, circle, name]) {
          node.addEventListener("click", style.onClick);
          if (style.title) node.append(svg("title", {}, style.title));
        }
        labels.append(hit);
      }
      labels.append(circle);
      labels.append(name);
    });
    map.append(halo);
    if (hits.childNodes.length) map.append(hits);
    map.append(tracks);
    if (gaps.childNodes.length) map.append(gaps);
    map.append(labels);
    return { unit };
  }

  return { COLOURS, colour, draw, svg };
})();

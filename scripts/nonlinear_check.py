#!/usr/bin/env python3
"""Does a non-linear model of the rank features beat the checked-in linear one? Reads the
per-task features `cargo xtask eval --json F` records and, leaving one repository out at a
time, fits gradient-boosted trees (LightGBM) two ways:

1. as a ranker of each task's files (features of a file's best candidate, per-feature
   maxima over its candidates, its linear score, share of the best and rank), scored by
   hit@1, hit@5 and MRR of the first changed file against the linear model's ranking;
2. as a classifier of "the first place is right" from the first two files' features and
   the score margins, scored by how often the first place is right on the held-out top
   tenth, fifth, quarter, third and half of tasks (what the confidence levels need).

usage: pip install lightgbm numpy; scripts/nonlinear_check.py EVAL_JSON
"""
import collections, json, math, os, sys

import lightgbm as lgb
import numpy as np

W = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "rank", "weights.json")))

S = W['shape']
def lin(f):
    tool = W['search_name']*(f['search_name'] + S['rest_name']*min(f.get('search_name_rest',0), f['search_name'])) \
      + W['search_lexical']*f['search_lexical'] + W['search_path']*(S['path_stem']*f['search_path']+S['path_dir']*f.get('search_path_dir',0)) \
      + W['search_graph']*f['search_graph'] + W['search_literal_name']*f.get('search_literal_name',0) \
      + W['search_literal_path']*f.get('search_literal_path',0) + W['search_literal_text']*f.get('search_literal_text',0) \
      + W['search_proximity']*f.get('search_proximity',0)
    name = W['symbol_name']*f['symbol_name'] + W['symbol_literal']*f.get('symbol_literal',0)
    lex = W['matched_lexical']*f['matched_lexical']
    tf = 1.0
    if f['secondary']: tf *= W['secondary_factor']
    if f['declaration_only']: tf *= W['declaration_only_factor']
    w = f['width']
    tight = W['rangeless_factor'] if f['rangeless'] else ((80.0/w)**W['width_exponent'] if w > 80 else 1.0)
    prior = math.exp(W['size']*f.get('size',0))
    return (tool+name+lex)*tf*tight*prior
NUM = ['search_name','search_name_rest','search_lexical','search_path','search_path_dir','search_graph','search_literal_name','search_literal_path','search_literal_text','search_proximity','symbol_literal','symbol_name','matched_lexical','width','size']
doc = json.load(open(sys.argv[1]))
rows = []  # (repo, task_idx, file, featvec, label, linscore)
tasks = []
for ti, t in enumerate(doc['tasks']):
    cands = t.get('candidates') or []
    if not cands: continue
    byfile = collections.defaultdict(list)
    for c in cands: byfile[c['path']].append(c['features'])
    files = []
    for p, fs in byfile.items():
        scores = [lin(f) for f in fs]
        b = int(np.argmax(scores)); bf = fs[b]
        files.append((p, max(scores), bf, fs))
    files.sort(key=lambda x: -x[1])
    best = files[0][1] if files and files[0][1] > 0 else 1.0
    gold = set(t['gold_files'])
    items = []
    for r, (p, s, bf, fs) in enumerate(files):
        v = [s, s/best, r, math.log(s+1e-9), len(fs)]
        v += [bf[k] if not isinstance(bf[k], bool) else float(bf[k]) for k in NUM]
        v += [max(f[k] for f in fs) for k in NUM if k not in ('width',)]
        v += [float(bf['secondary']), float(bf['declaration_only']), float(bf['rangeless'])]
        depth = p.count('/')
        v += [depth]
        items.append((p, v, int(p in gold), s))
    tasks.append((t['repo'], items, gold))
repos = sorted(set(r for r, _, _ in tasks))
print(len(tasks), 'tasks', len(repos), 'repos')
def metrics(order_lists):
    h1 = h5 = mrr = 0
    for items, gold in order_lists:
        ranks = [i for i, it in enumerate(items) if it[2]]
        if ranks:
            r = ranks[0]
            h1 += r == 0; h5 += r < 5; mrr += 1/(r+1)
    n = len(order_lists)
    return h1/n, h5/n, mrr/n
base = metrics([(items, g) for _, items, g in tasks])
print('linear (all tasks with candidates): hit@1 %.3f hit@5 %.3f mrr %.3f' % base)
# per-repo mean too
def per_repo(fn):
    out = {}
    for repo in repos:
        out[repo] = metrics([x for x in fn(repo)])
    return out
TOPK = 30  # files re-ranked per task; the rest keep the linear order
def fit_pred(train, test, params):
    X=[];y=[];grp=[]
    for _, items, g in train:
        its = items[:TOPK]
        if not any(it[2] for it in its): continue
        for it in its: X.append(it[1]); y.append(it[2])
        grp.append(len(its))
    ds = lgb.Dataset(np.array(X), np.array(y), group=grp)
    m = lgb.train(params, ds, num_boost_round=params.pop('rounds', 200))
    out = []
    for _, items, g in test:
        its = items[:TOPK]; rest = items[TOPK:]
        if its:
            p = m.predict(np.array([it[1] for it in its]))
            order = [its[i] for i in np.argsort(-p, kind='stable')]
        else: order = []
        out.append((order + rest, g))
    return out
for params in [dict(objective='lambdarank', learning_rate=0.05, num_leaves=7, min_data_in_leaf=20, rounds=200, verbose=-1, lambdarank_truncation_level=10),
               dict(objective='lambdarank', learning_rate=0.03, num_leaves=4, min_data_in_leaf=50, rounds=300, verbose=-1),
               dict(objective='binary', learning_rate=0.05, num_leaves=7, min_data_in_leaf=30, rounds=200, verbose=-1)]:
    held = []; lin_held = []
    for repo in repos:
        train = [t for t in tasks if t[0] != repo]; test = [t for t in tasks if t[0] == repo]
        held += fit_pred(train, test, dict(params))
    print(params, 'LORO gbdt: hit@1 %.3f hit@5 %.3f mrr %.3f' % metrics(held))


# 2. the first place right, as a classifier
X=[];y=[];repo=[]
for t in doc['tasks']:
    cands = t.get('candidates') or []
    if not cands: continue
    byfile = collections.defaultdict(list)
    for c in cands: byfile[c['path']].append(c['features'])
    files = sorted(((max(lin(f) for f in fs), p, max(fs, key=lin), fs) for p, fs in byfile.items()), key=lambda x: -x[0])
    gold = set(t['gold_files'])
    s1 = files[0][0]; s2 = files[1][0] if len(files) > 1 else 0.0; s3 = files[2][0] if len(files) > 2 else 0.0
    f1 = files[0][2]; f2 = files[1][2] if len(files) > 1 else {k: 0 for k in f1}
    v = [math.log(max(s1,1e-9)), math.log(max(s1,1e-9)/max(s2,1e-9)), math.log(max(s2,1e-9)/max(s3,1e-9)), len(files), len(files[0][3])]
    for k in NUM:
        a = float(f1[k]); b = float(f2[k]); v += [a, a-b]
    v += [float(f1['secondary']), float(f1['rangeless'])]
    # directory agreement of top files
    d = lambda p: p.rsplit('/',1)[0] if '/' in p else ''
    v += [sum(1 for x in files[1:5] if d(x[1]) == d(files[0][1]))]
    X.append(v); y.append(int(files[0][1] in gold)); repo.append(t['repo'])
X=np.array(X); y=np.array(y); repo=np.array(repo)
print(len(y), 'tasks, top1 right', y.mean().round(3))
for params in [dict(objective='binary', learning_rate=0.05, num_leaves=4, min_data_in_leaf=40, verbose=-1),
               dict(objective='binary', learning_rate=0.03, num_leaves=7, min_data_in_leaf=30, verbose=-1)]:
    p = np.zeros(len(y))
    for r in sorted(set(repo)):
        tr = repo != r
        m = lgb.train(params, lgb.Dataset(X[tr], y[tr]), num_boost_round=200)
        p[~tr] = m.predict(X[~tr])
    order = np.argsort(-p)
    out = []
    for share in (0.1, 0.2, 0.25, 1/3, 0.5):
        k = int(len(y)*share); out.append(f"{share:.2f}:{y[order[:k]].mean():.3f}")
    print(params['num_leaves'], ' '.join(out))
# margin-only baseline
m = X[:,1]; order = np.argsort(-m)
print('margin only', ' '.join(f"{s:.2f}:{y[order[:int(len(y)*s)]].mean():.3f}" for s in (0.1,0.2,0.25,1/3,0.5)))

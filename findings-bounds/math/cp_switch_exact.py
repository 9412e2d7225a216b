"""Exact size of the hybrid (Clopper-Pearson when every score is 0 or 1, else empirical Bernstein).

Three-point laws on {0, v, 1} with P(1) = p, P(v) = e, P(0) = q: the size
P(bound >= true mean) summed exactly over all multinomial count vectors, at
true means just below each Clopper-Pearson step (where its own size is
nearly alpha).  Independent of the package (scipy's beta quantile, floats).
Usage: <python with scipy> findings-bounds/math/cp_switch_exact.py NMAX
"""
import math, itertools, sys
import numpy as np
from scipy.stats import beta, binom
from scipy.special import gammaln
A=0.05; L=math.log(2/A)
def cp_lb(k,n):
    return 0.0 if k==0 else beta.ppf(A,k,n-k+1)
def eb_lb(vals_counts,n):
    m=sum(x*c for x,c in vals_counts)/n
    ss=sum(c*(x-m)**2 for x,c in vals_counts)
    if n>=2:
        c=math.sqrt(L/(2*(n-1))); s=min(0.5,c+math.sqrt(ss/(n-1)+c*c))
    else: s=0.5
    return max(0.0,m-math.sqrt(2*s*s*L/n)-L/(3*n))
def size(n,p,e,v):
    q=1-p-e; mu=p+e*v
    if q<0: return None
    tot=0.0; cpart=0.0
    lp=[math.log(p) if p>0 else -math.inf, math.log(e) if e>0 else -math.inf, math.log(q) if q>0 else -math.inf]
    for k1 in range(n+1):
        for ke in range(n-k1+1):
            k0=n-k1-ke
            lw=gammaln(n+1)-gammaln(k1+1)-gammaln(ke+1)-gammaln(k0+1)
            terms=[(k1,lp[0]),(ke,lp[1]),(k0,lp[2])]
            if any(c>0 and l==-math.inf for c,l in terms): continue
            lw+=sum(c*l for c,l in terms if c>0)
            w=math.exp(lw)
            lb=cp_lb(k1,n) if ke==0 else eb_lb([(1,k1),(v,ke),(0,k0)],n)
            if lb>=mu:
                tot+=w
                if ke==0: cpart+=w
    return tot,cpart,mu
best=(0,)
for n in range(2,int(sys.argv[1])+1):
    # mu just below CP LB(k) for each k: that is where CP's size is ~alpha
    for k in range(1,n+1):
        mu=cp_lb(k,n)*(1-1e-9)
        for e in [1e-3,0.01,0.03,0.1,0.2,0.4]:
            for v in [0.001,0.1,0.5,0.9,0.999]:
                p=mu-e*v
                if p<0 or 1-p-e<0: continue
                r=size(n,p,e,v)
                if r and r[0]>best[0]:
                    best=(r[0],r[1],n,k,mu,e,v)
    print(n,best,flush=True)

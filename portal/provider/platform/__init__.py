"""What every domain of the provider stands on, and the request pipeline every route goes
through. It imports no domain and nothing of the app (tests/unit/test_provider_layers.py).

- Data: ``db`` (engine, sessions, pool), ``models/`` (every table, one package: the
  relationships cross the domains, docs/decisions/provider-domains.md), ``json_lists``.
- The HTTP edge: ``routing``, ``responses``, ``errors``, ``language``, ``headers``,
  ``input_check``, ``origin_check``, ``limits``, ``uploads``, ``downloads``, ``observability``,
  ``openapi``.
- Hydra and lists: ``hydra`` (IRIs, collections, the paging parameters, includes), ``lists``
  (the one read path of a list: sorting, scope, a page and its count), ``embeds`` (how a
  resource names its company or a service).
- Who is calling: ``security`` (the principal), ``sessions``, ``api_tokens``, ``feed_links``,
  ``people``, ``scoping`` (the companies a principal reads), ``one_time_tokens``,
  ``rate_limits``, ``audit``.
- Mail: ``mail/`` (the outbox, its transport and the account messages).
"""

return { size = { 100000, 100000 }, body = morph.rect() }

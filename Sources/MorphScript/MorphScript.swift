import MorphCore
